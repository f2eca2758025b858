"""scripts/install-system-deps.sh (run by `make test`) waits for a held dpkg lock, bounded, and
says so, with fake `dpkg` and `apt-get` on PATH and a lock file of the test's own."""

from __future__ import annotations

import fcntl
import os
import subprocess
import threading
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "install-system-deps.sh"


def _fakes(tmp_path: Path) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "apt-calls.txt"
    for name, body in (("dpkg", "exit 1"),  # every package is missing
                       ("apt-get", f'echo "$@" >> {calls}'),
                       ("sudo", 'exec "$@"')):
        path = bin_dir / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    lock = tmp_path / "lock-frontend"
    lock.touch()
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "KG_APT_LOCKS": str(lock),
            "KG_APT_LOCK_TIMEOUT": "4"}


def _hold(lock: Path):
    handle = open(lock, "a")  # noqa: SIM115 - held until the test releases it
    fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return handle


def test_a_lock_held_past_the_timeout_ends_in_one_line_naming_it(tmp_path):
    env = _fakes(tmp_path)
    handle = _hold(Path(env["KG_APT_LOCKS"]))
    try:
        done = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60,
                              check=False)
    finally:
        handle.close()
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert any("holds" in line and "waiting for it (up to 4 s)" in line for line in lines), done.stderr
    assert lines[-1].startswith("install-system-deps: error: ") and env["KG_APT_LOCKS"] in lines[-1]
    assert "KG_APT_LOCK_TIMEOUT" in lines[-1]
    assert not (tmp_path / "apt-calls.txt").exists()  # apt-get never ran


def test_a_lock_released_in_time_is_waited_for_then_apt_runs_with_a_bounded_wait(tmp_path):
    env = _fakes(tmp_path)
    handle = _hold(Path(env["KG_APT_LOCKS"]))
    threading.Timer(1.5, handle.close).start()
    done = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "waiting for it" in done.stderr
    calls = (tmp_path / "apt-calls.txt").read_text().splitlines()
    assert [call.split()[2] for call in calls] == ["update", "install"]
    assert all(call.startswith("-o DPkg::Lock::Timeout=4 ") for call in calls)


def test_nothing_missing_means_no_apt_at_all(tmp_path):
    env = _fakes(tmp_path)
    (tmp_path / "bin" / "dpkg").write_text("#!/bin/sh\nexit 0\n")
    done = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert not (tmp_path / "apt-calls.txt").exists()
