#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""schema_check.py SCHEMA.json DOC.json: validates DOC against the JSON schema keywords the fixtures use (type,
required, properties, additionalProperties false, items, $ref into $defs, pattern, enum, const, minimum, maximum,
maxLength), written here because python3-jsonschema is not among the Debian packages the tests use. Prints one
line per error and exits 1 when there is any; with jsonschema importable, validates with it too."""
import json
import re
import sys

TYPES = {'object': dict, 'array': list, 'string': str, 'boolean': bool}


def check(s, v, root, path, errs):
    if '$ref' in s:
        s = root['$defs'][s['$ref'].split('/')[-1]]
    t = s.get('type')
    if t == 'integer':
        ok = isinstance(v, int) and not isinstance(v, bool)
    elif t == 'number':
        ok = isinstance(v, (int, float)) and not isinstance(v, bool)
    elif t:
        ok = isinstance(v, TYPES[t]) and not (t != 'boolean' and isinstance(v, bool))
    else:
        ok = True
    if not ok:
        errs.append('%s: %r is not of type %s' % (path, v, t))
        return
    if 'const' in s and v != s['const']:
        errs.append('%s: %r is not %r' % (path, v, s['const']))
    if 'enum' in s and v not in s['enum']:
        errs.append('%s: %r is not one of %s' % (path, v, s['enum']))
    if 'pattern' in s and not re.search(s['pattern'], v):
        errs.append('%s: %r does not match %s' % (path, v, s['pattern']))
    if 'maxLength' in s and len(v) > s['maxLength']:
        errs.append('%s: longer than %d' % (path, s['maxLength']))
    if 'minimum' in s and v < s['minimum'] or 'maximum' in s and v > s['maximum']:
        errs.append('%s: %r out of range' % (path, v))
    if isinstance(v, dict):
        for k in s.get('required', []):
            if k not in v:
                errs.append('%s: %s is required' % (path, k))
        props = s.get('properties', {})
        for k, x in v.items():
            if k in props:
                check(props[k], x, root, path + '.' + k, errs)
            elif s.get('additionalProperties') is False:
                errs.append('%s: %s is not a property of the schema' % (path, k))
    if isinstance(v, list) and 'items' in s:
        for i, x in enumerate(v):
            check(s['items'], x, root, '%s[%d]' % (path, i), errs)


def main():
    schema, doc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    errs = []
    check(schema, doc, schema, '$', errs)
    try:
        import jsonschema
        for e in jsonschema.Draft202012Validator(schema).iter_errors(doc):
            errs.append('jsonschema: %s' % e.message)
    except ImportError:
        pass
    for e in errs[:20]:
        print('# ' + e)
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
