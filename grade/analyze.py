"""bench's analysis of a task's unittest files, for grading's negative controls.

Usage: python3 -I -S -B analyze.py < {"files": {"test_x.py": "<source>", ...}}

It runs on the pristine test files only, never with code under test. For
every test method (def test* in a class body) it prints where the method
is, whether it may be skipped or is an expected failure, and the top-level
assertions whose mutation makes the method fail for any honest code: an
expected value that can be replaced by another ("value"), an assert method
that can be swapped for its opposite ("flip"). Positions are 1-based lines
and 0-based UTF-8 byte columns, as ast gives them.
"""
import ast
import json
import sys

# The assert methods whose expected argument can be replaced by a value no
# implementation returns, and those with an opposite.
EQUAL = {
    "assertEqual", "assertEquals", "assertListEqual", "assertTupleEqual", "assertDictEqual",
    "assertSetEqual", "assertSequenceEqual", "assertMultiLineEqual", "assertCountEqual",
    "assertAlmostEqual", "assertAlmostEquals",
}
OPPOSITE = {
    "assertTrue": "assertFalse", "assertIs": "assertIsNot", "assertIsNone": "assertIsNotNone",
    "assertIn": "assertNotIn", "assertIsInstance": "assertNotIsInstance", "assertEqual": "assertNotEqual",
    "assertAlmostEqual": "assertNotAlmostEqual", "assertRegex": "assertNotRegex",
    "assertGreater": "assertLessEqual", "assertGreaterEqual": "assertLess",
}
OPPOSITE.update({v: k for k, v in list(OPPOSITE.items())})
OPPOSITE.update({"assertEquals": "assertNotEqual", "assertListEqual": "assertNotEqual",
                 "assertTupleEqual": "assertNotEqual", "assertDictEqual": "assertNotEqual",
                 "assertSetEqual": "assertNotEqual", "assertSequenceEqual": "assertNotEqual",
                 "assertMultiLineEqual": "assertNotEqual"})
STDLIB = set(sys.stdlib_module_names) | {"unittest"}
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def span(node):
    return [node.lineno, node.col_offset, node.end_lineno, node.end_col_offset]


def walk_scope(node):
    """The nodes of node's body, not descending into nested scopes."""
    todo = list(ast.iter_child_nodes(node))
    while todo:
        n = todo.pop()
        yield n
        if not isinstance(n, SCOPES):
            todo.extend(ast.iter_child_nodes(n))


def marks(node, word):
    """Whether any name, attribute or string under node mentions word."""
    word = word.lower()
    for n in ast.walk(node):
        text = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else None
        if text is not None and word in text.lower():
            return True
    return False


def code_names(tree):
    """Names the module binds to code under test: what it imports from
    modules outside the standard library, and those modules."""
    names = set()
    for n in tree.body:
        if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module and n.module.split(".")[0] not in STDLIB:
            names.update(a.asname or a.name for a in n.names)
        elif isinstance(n, ast.ImportFrom) and n.level > 0:
            names.update(a.asname or a.name for a in n.names)
        elif isinstance(n, ast.Import):
            for a in n.names:
                if a.name.split(".")[0] not in STDLIB:
                    names.add(a.asname or a.name.split(".")[0])
    return names


def uses(node, names):
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def literal(node):
    """Whether node is a literal: constants, and containers of literals."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float, complex)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and literal(k) for k in node.keys) and all(literal(v) for v in node.values)
    return False


def leaves(node):
    """The constants of a literal that can be replaced, with their types."""
    if isinstance(node, ast.UnaryOp) or isinstance(node, ast.Constant):
        v = node.operand.value if isinstance(node, ast.UnaryOp) else node.value
        kind = {int: "int", float: "float", str: "str", bytes: "bytes"}.get(type(v), "other")
        return [(node, kind)]
    out = []
    for e in ast.iter_child_nodes(node):
        if not isinstance(e, (ast.expr_context,)):
            out.extend(leaves(e))
    return out


def candidates(stmt, self_name, names):
    """The mutations of one top-level statement of a test method."""
    out = []
    if isinstance(stmt, ast.Assert):
        out.append({"kind": "flip", "span": span(stmt.test), "assert": True})
        return out
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return out
    call, fn = stmt.value, stmt.value.func
    if not (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id == self_name):
        return out
    if fn.lineno != fn.end_lineno:
        return out
    name_span = [fn.end_lineno, fn.end_col_offset - len(fn.attr), fn.end_lineno, fn.end_col_offset]
    if fn.attr in EQUAL and len(call.args) >= 2 and not any(k.arg == "delta" for k in call.keywords):
        a, b = call.args[0], call.args[1]
        for expected, actual in ((b, a), (a, b)):
            if uses(actual, names) and not uses(expected, names):
                if literal(expected):
                    for leaf, kind in leaves(expected):
                        if fn.attr.startswith("assertAlmost") and kind not in ("int", "float"):
                            continue
                        out.append({"kind": "value", "span": span(leaf), "type": kind})
                elif not fn.attr.startswith("assertAlmost"):
                    out.append({"kind": "value", "span": span(expected), "type": "other"})
                break
    if fn.attr in OPPOSITE and call.args:
        out.append({"kind": "flip", "span": name_span, "to": OPPOSITE[fn.attr]})
    return out


def method(cls, fn, class_skip, class_xfail, names):
    skip = class_skip or any(marks(d, "skip") for d in fn.decorator_list) or marks(fn, "skip")
    xfail = class_xfail or any(marks(d, "expectedfailure") for d in fn.decorator_list)
    start = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
    args = fn.args.posonlyargs + fn.args.args
    m = {"name": fn.name, "class": cls.name, "start": start, "end": fn.end_lineno, "skip": skip, "xfail": xfail,
         "def_line": fn.lineno, "def_col": fn.col_offset, "self": args[0].arg if args else None,
         "body_line": None, "cands": []}
    twin = (not skip and not xfail and not isinstance(fn, ast.AsyncFunctionDef) and m["self"] is not None
            and fn.body and fn.body[0].lineno > fn.lineno
            and not any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await)) for n in walk_scope(fn)))
    m["twin"] = twin
    if twin:
        m["body_line"] = fn.body[0].lineno
        for stmt in fn.body:
            m["cands"].extend(candidates(stmt, m["self"], names))
    return m


def analyze(source):
    tree = ast.parse(source)
    names = code_names(tree)
    module_skip = False
    methods, classes, refs = [], [], []
    tests = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for fn in node.body:
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name.startswith("test"):
                    tests.add(fn.name)
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            module_skip = module_skip or marks(node, "skip") and not isinstance(node, (ast.Import, ast.ImportFrom))
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fixtures = [f for f in node.body if not (isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name.startswith("test"))]
        class_skip = module_skip or any(marks(d, "skip") for d in node.decorator_list) or any(marks(f, "skip") for f in fixtures)
        class_xfail = any(marks(d, "expectedfailure") for d in node.decorator_list)
        ms = [method(node, fn, class_skip, class_xfail, names) for fn in node.body
              if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name.startswith("test")]
        methods.extend(ms)
        first = next((f for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and f.lineno > node.lineno and f.body[0].lineno > f.lineno), None)
        classes.append({"name": node.name, "end": node.end_lineno,
                        "eligible": bool(ms) and not class_skip and not class_xfail and first is not None,
                        "def_line": first.lineno if first else None, "body_line": first.body[0].lineno if first else None})
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and n.attr in tests and n.end_lineno == n.value.end_lineno:
            refs.append([n.end_lineno, n.end_col_offset - len(n.attr), n.end_lineno, n.end_col_offset])
    unittest_name = None
    for n in tree.body:
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.name == "unittest":
                    unittest_name = a.asname or "unittest"
    return {"methods": methods, "classes": classes, "refs": refs, "unittest": unittest_name}


def main():
    files = json.load(sys.stdin)["files"]
    out = {}
    for name, source in files.items():
        try:
            out[name] = analyze(source)
        except SyntaxError as e:
            out[name] = {"error": "%s: %s" % (name, e)}
    sys.stdout.write(json.dumps({"files": out}))


main()
