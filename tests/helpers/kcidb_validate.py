#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""kcidb_validate.py SCHEMA.json DOC.json...: validates each KCIDB document against the JSON schema with Debian's
python3-jsonschema (Draft 2020-12), adding what the schema's keywords leave to a format checker or to prose: every
"date-time" an RFC 3339 time with its offset, no null anywhere (KCIDB: "no properties can be null"), and ids unique
per kind. Prints "DOC: where: what" per error (at most 20 per document) and exits 1 when a document is invalid, 2
when jsonschema is missing or a file cannot be read."""
import datetime
import json
import re
import sys

try:
    import jsonschema
except ImportError:
    print('kcidb_validate.py: python3-jsonschema is not installed (apt-get install python3-jsonschema)')
    sys.exit(2)

RFC3339 = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$')


def walk(v, path, errs):
    if v is None:
        errs.append('%s: null (KCIDB allows no null)' % path)
    elif isinstance(v, dict):
        for k, x in v.items():
            walk(x, path + '.' + k, errs)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, '%s[%d]' % (path, i), errs)


def times(schema, v, path, errs, root):
    """date-time strings where the schema says so (the validator checks formats only with optional modules)."""
    if '$ref' in schema:
        schema = root['$defs'][schema['$ref'].split('/')[-1]]
    if schema.get('format') == 'date-time' and isinstance(v, str):
        ok = RFC3339.match(v)
        try:
            datetime.datetime.fromisoformat(v.replace('Z', '+00:00'))
        except ValueError:
            ok = False
        if not ok:
            errs.append('%s: %r is not an RFC 3339 date-time' % (path, v))
    if isinstance(v, dict):
        for k, x in v.items():
            if k in schema.get('properties', {}):
                times(schema['properties'][k], x, path + '.' + k, errs, root)
    if isinstance(v, list) and 'items' in schema:
        for i, x in enumerate(v):
            times(schema['items'], x, '%s[%d]' % (path, i), errs, root)


def check(schema, doc):
    errs = ['%s: %s' % ('$' + ''.join('[%r]' % p for p in e.absolute_path), e.message)
            for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]
    walk(doc, '$', errs)
    times(schema, doc, '$', errs, schema)
    if isinstance(doc, dict):
        for kind in ('checkouts', 'builds', 'tests'):
            ids = [o.get('id') for o in doc.get(kind, []) if isinstance(o, dict)]
            if len(ids) != len(set(ids)):
                errs.append('$.%s: ids are not unique' % kind)
    return errs


def main():
    if len(sys.argv) < 3:
        print('usage: kcidb_validate.py SCHEMA.json DOC.json...')
        return 2
    try:
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print('%s: %s' % (sys.argv[1], e))
        return 2
    bad = 0
    for name in sys.argv[2:]:
        try:
            doc = json.load(open(name))
        except (OSError, ValueError) as e:
            print('%s: %s' % (name, e))
            bad = 1
            continue
        errs = check(schema, doc)
        for e in errs[:20]:
            print('%s: %s' % (name, e))
        bad |= bool(errs)
    return bad


if __name__ == '__main__':
    sys.exit(main())
