#!/usr/bin/env python3
"""Validates photomirror --json documents against docs/schema/<command>.schema.json.

Usage: json_schema_check.py SCHEMA_DIR COMMAND < documents
Reads one JSON document, or with --lines one per line (watch), from stdin. Prints every
violation (path: message) and exits 1 if there is one, 0 if every document validates. The
schemas refer to common.schema.json by $id; they are all loaded from SCHEMA_DIR, never fetched.
Needs jsonschema (Scripts/setup --for-tests installs it).
"""
import json
import pathlib
import sys

import jsonschema
from referencing import Registry, Resource


def main():
    lines = "--lines" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--lines"]
    folder, command = pathlib.Path(args[0]), args[1]
    resources = []
    for path in sorted(folder.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry = Registry().with_resources(resources)
    schema = json.loads((folder / f"{command}.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema, registry=registry,
                                                format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    text = sys.stdin.read()
    documents = [json.loads(line) for line in text.splitlines() if line.strip()] if lines else [json.loads(text)]
    if not documents:
        print("no document to check")
        return 1
    failed = False
    for number, document in enumerate(documents):
        for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in error.absolute_path) or "(top)"
            print(f"document {number}: {where}: {error.message}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
