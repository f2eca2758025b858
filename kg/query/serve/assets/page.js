"use strict";
const form = document.getElementById("form");
const query = document.getElementById("query");
const accept = document.getElementById("accept");
const example = document.getElementById("example");
const question = document.getElementById("question");
const statusLine = document.getElementById("status");
const out = document.getElementById("out");
let examples = [];

function cell(term) {
  if (!term) return "";
  if (term.type === "literal" && term["xml:lang"]) return term.value + "@" + term["xml:lang"];
  return term.value;
}

function showJson(data) {
  if (typeof data.boolean === "boolean") {
    const p = document.createElement("p");
    p.textContent = data.boolean ? "yes" : "no";
    out.append(p);
    return "ASK: " + p.textContent;
  }
  const table = document.createElement("table");
  table.id = "results";
  const head = table.createTHead().insertRow();
  for (const name of data.head.vars) {
    const th = document.createElement("th");
    th.textContent = name;
    head.append(th);
  }
  const body = table.createTBody();
  for (const binding of data.results.bindings) {
    const row = body.insertRow();
    for (const name of data.head.vars) row.insertCell().textContent = cell(binding[name]);
  }
  out.append(table);
  const n = data.results.bindings.length;
  return n + (n === 1 ? " row" : " rows");
}

async function run(event) {
  if (event) event.preventDefault();
  out.replaceChildren();
  statusLine.textContent = "running...";
  const started = performance.now();
  try {
    const response = await fetch("sparql", {
      method: "POST",
      headers: {"Content-Type": "application/x-www-form-urlencoded", "Accept": accept.value},
      body: new URLSearchParams({query: query.value}),
    });
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    const type = response.headers.get("Content-Type") || "";
    let summary = response.status + " " + response.statusText;
    if (response.ok && type.startsWith("application/sparql-results+json") &&
        accept.value.includes(", ")) {
      summary = showJson(JSON.parse(text));
    } else {
      const pre = document.createElement("pre");
      pre.textContent = text;
      out.append(pre);
    }
    statusLine.textContent = summary + " in " + ms + " ms";
  } catch (error) {
    statusLine.textContent = "request failed: " + error;
  }
}

function choose(name) {
  const found = examples.find((e) => e.name === name);
  if (!found) return false;
  example.value = name;
  query.value = found.query;
  question.textContent = found.question;
  return true;
}

async function start() {
  form.addEventListener("submit", run);
  example.addEventListener("change", () => choose(example.value));
  try {
    examples = await (await fetch("examples.json")).json();
  } catch (error) {
    examples = [];
  }
  for (const e of examples) {
    const option = document.createElement("option");
    option.value = e.name;
    option.textContent = e.name + ": " + e.question;
    example.append(option);
  }
  const params = new URLSearchParams(window.location.search);
  if (params.get("example") && choose(params.get("example"))) {
    await run();
  } else if (params.get("query")) {
    query.value = params.get("query");
    await run();
  }
}

start();
