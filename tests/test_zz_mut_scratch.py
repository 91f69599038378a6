import hashlib, pytest
import tests.test_properties as tp
from codelog import grouping
from codelog.ast_hash import ParseResult

def raw(code, lang):
    return ParseResult(True, hashlib.md5(code.encode()).hexdigest())

def no_names(code, lang):
    import re
    return ParseResult(True, hashlib.md5(re.sub(r"[A-Za-z_]\w*", "N", re.sub(r"#.*", "", code)).replace(" ", "").encode()).hexdigest())

@pytest.mark.parametrize("fake,test", [(raw, "test_hash_ignores_names_comments_and_layout"), (no_names, "test_hash_equal_exactly_when_token_structure_is_equal")])
def test_hash_mutants(monkeypatch, fake, test):
    monkeypatch.setattr(tp, "parse_code", fake)
    with pytest.raises(AssertionError):
        getattr(tp, test)()

real = grouping.classify_sql
@pytest.mark.parametrize("old,new", [(") > {int(g.max_correct_per_problem)}", ") > 1000"), ("WHERE copy_rank = 1", "WHERE copy_rank >= 1"), ("HAVING count(*) FILTER (WHERE is_correct) >=", "HAVING count(*) FILTER (WHERE is_correct) >= 0 OR 1 >=")])
def test_grouping_mutants(monkeypatch, old, new):
    import inspect
    src = inspect.getsource(real)
    assert old in src
    ns = {}
    exec(src.replace(old, new), grouping.__dict__ | ns, ns)
    monkeypatch.setattr(tp, "classify_sql", ns["classify_sql"])
    with pytest.raises(AssertionError):
        tp.test_grouping_invariants()
