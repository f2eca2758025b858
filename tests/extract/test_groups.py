from kg.extract.groups import IndexGroups


def test_groups_join_through_shared_members_and_stay_apart_otherwise():
    groups = IndexGroups(6)
    for i, j in ((0, 1), (2, 3), (1, 3), (4, 5)):
        groups.union(i, j)
    roots = [groups.find(i) for i in range(6)]
    assert len({roots[0], roots[1], roots[2], roots[3]}) == 1
    assert roots[4] == roots[5] != roots[0]
    groups.union(5, 5)  # joining a group to itself changes nothing
    assert groups.find(4) == groups.find(5)
