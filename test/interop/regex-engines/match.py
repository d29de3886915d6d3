"""Python's reading of the contract's patterns (`re`, as jsonschema, openapi-core and Schemathesis
use it): reads {"patterns": [...], "strings": [...]} on stdin, writes for each pattern either its
compile error (a warning counts: Python warns of a pattern whose meaning will change) or whether
re.search finds it in each string, as JSON on stdout."""
import json
import re
import sys
import warnings

warnings.simplefilter("error")
data = json.load(sys.stdin)
results = []
for pattern in data["patterns"]:
    try:
        compiled = re.compile(pattern)
    except (re.error, Warning) as error:
        results.append({"error": str(error)})
        continue
    results.append({"verdicts": [compiled.search(text) is not None for text in data["strings"]]})
json.dump(results, sys.stdout)
