#!/usr/bin/env bash
# Rewrites the citations of research notes outside the repository in the Java sources
# ("spec {@code pbs-formats.md} §7", "(§2.6)", "../shared/spec/pbs-protocol.md",
# "design {@code libraries-and-peers.md} §4.1") to the docs/ headings that now hold the same
# facts, following docs/spec-map.txt.
#
#   scripts/replace-spec-refs.sh [--check | --list] [ROOT]
#
# ROOT defaults to the repository this script is in. Without --check the *.java files under
# ROOT are rewritten in place, then every citation still left (an unmapped note or section) is
# listed. With --check nothing is written and every citation in the tree is listed. Both also
# list map targets whose docs heading does not exist, and exit 1 if anything was listed.
# --list writes nothing and prints each distinct citation (note, section) with its count and
# its target.
set -euo pipefail

mode=apply
if [[ "${1:-}" == "--check" || "${1:-}" == "--list" ]]; then
    mode="${1#--}"
    shift
fi
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
if [[ $# -gt 1 || ! -d "$root" ]]; then
    echo "usage: scripts/replace-spec-refs.sh [--check | --list] [ROOT]" >&2
    exit 2
fi
map="$root/docs/spec-map.txt"
if [[ ! -f "$map" ]]; then
    echo "replace-spec-refs: $map: not found" >&2
    exit 2
fi
command -v python3 >/dev/null || { echo "replace-spec-refs: python3 is needed" >&2; exit 2; }

exec python3 - "$mode" "$root" "$map" <<'PY'
import os, re, sys

mode, root, mapfile = sys.argv[1:4]
NOTES = r'pbs-formats|pbs-protocol|pbs-datastore-ops|vma-and-qemu-lib|libraries-and-peers|ARCHITECTURE|anchors'
# a note named in a comment, with the optional words and markup around it
NOTE_RE = re.compile(r'(?:(?:spec|design(?: note)?)(?:\s*\n\s*\*)?\s+)?(?:\{@code\s+)?`?(?:(?:\.\./)*(?:/work/)?shared/(?:spec|design)/)?('
                     + NOTES + r')\.md`?\}?')
SEC = r'§\s?(\d+(?:\.\d+)*)'
SEC_RE = re.compile(SEC)
# what may stand between two sections of one citation
JOIN_RE = re.compile(r'(?:\s*\n\s*\*)?\s*(,|/|and|[–-])?(?:\s*\n\s*\*)?\s*$')
QUAL_RE = re.compile(r'(?:\s*\n\s*\*)?\s*(?:step \d+|item \d+|"[^"\n]*")')


def die(msg):
    print('replace-spec-refs: ' + msg, file=sys.stderr)
    sys.exit(2)


maps, bare, default = {}, {}, {}
for n, line in enumerate(open(mapfile, encoding='utf-8'), 1):
    line = line.split('|')[0].strip()
    if not line or line.startswith('#'):
        continue
    f = line.split()
    if f[0] == 'MAP' and len(f) == 4:
        maps[(f[1], f[2])] = f[3]
    elif f[0] == 'BARE' and len(f) == 3:
        bare[f[1]] = f[2]
    elif f[0] == 'DEFAULT' and len(f) == 3:
        default[f[1]] = f[2]
    else:
        die(f'{mapfile}:{n}: cannot parse: {line}')


def slug(heading):
    s = re.sub(r'[^\w\- ]', '', heading.strip().lower())
    return s.replace(' ', '-')


def anchors(path):
    out, seen, code = set(), {}, False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            code = not code
            continue
        m = None if code else re.match(r'#+\s+(.*)', line)
        if m:
            s = slug(m.group(1))
            k = seen.get(s, 0)
            seen[s] = k + 1
            out.add(s if k == 0 else f'{s}-{k}')
    return out


problems = []
seen_keys = {}
for f in sorted(bare):
    if not os.path.isfile(os.path.join(root, f)):
        problems.append(f'{mapfile}: BARE {f}: no such file (moved? update the map)')
for key, target in sorted(maps.items()):
    doc, _, anchor = target.partition('#')
    p = os.path.join(root, doc)
    if not os.path.isfile(p):
        problems.append(f'{mapfile}: {key[0]} {key[1]}: {doc} does not exist')
    elif anchor and anchor not in anchors(p):
        problems.append(f'{mapfile}: {key[0]} {key[1]}: no heading #{anchor} in {doc}')


def expand(a, b):
    """Sections of a range a..b: 1..3 -> 1,2,3; 2.4..2.6 -> 2.4,2.5,2.6; else both ends."""
    pa, pb = a.split('.'), b.split('.')
    if len(pa) == len(pb) and pa[:-1] == pb[:-1] and int(pa[-1]) <= int(pb[-1]) <= int(pa[-1]) + 20:
        return ['.'.join(pa[:-1] + [str(i)]) for i in range(int(pa[-1]), int(pb[-1]) + 1)]
    return [a, b]


def render(targets, javadoc):
    out, done = [], set()
    for t, qual in targets:
        if (t, qual) in done:
            continue
        done.add((t, qual))
        text = '{@code ' + t + '}' if javadoc else t
        out.append(text + qual)
    return ', '.join(out)


def rewrite(rel, txt):
    """Returns the new text and the list of citations it could not map."""
    module = rel.split('/')[0]
    left = []
    events = [(m.start(), m.end(), 'N', m.group(1)) for m in NOTE_RE.finditer(txt)]
    for m in SEC_RE.finditer(txt):
        if 'RFC' not in txt[max(0, m.start() - 12):m.start()]:
            events.append((m.start(), m.end(), 'S', m.group(1)))
    events.sort()
    # group into citations: a note with the sections right after it, or a run of bare sections
    cites, cur, last_note = [], None, None
    for s, e, kind, v in events:
        if kind == 'N':
            cur = {'start': s, 'end': e, 'note': v, 'secs': [], 'named': True}
            cites.append(cur)
            last_note = v
            continue
        joined = cur is not None and JOIN_RE.fullmatch(txt[cur['end']:s]) is not None
        if not joined:
            note = bare.get(rel) or last_note or default.get(module)
            start = s
            pre = txt[max(0, s - 5):s]
            if pre.endswith('spec '):
                start = s - 5
            cur = {'start': start, 'end': e, 'note': note, 'secs': [], 'named': False}
            cites.append(cur)
        sep = JOIN_RE.fullmatch(txt[cur['end']:s]).group(1) if joined else None
        q = QUAL_RE.match(txt, e)
        qual, end = '', e
        if q:
            end = q.end()
            # numbered steps are kept where docs/protocol.md numbers them the same way
            if q.group(0).strip().startswith('step') and cur['note'] == 'pbs-protocol':
                qual = ' ' + q.group(0).strip()
        if sep in ('–', '-') and cur['secs']:
            prev = cur['secs'].pop()
            for x in expand(prev[0], v):
                cur['secs'].append((x, ''))
            cur['secs'][-1] = (v, qual)
        else:
            cur['secs'].append((v, qual))
        cur['end'] = end
    out, pos = [], 0
    for c in cites:
        line_start = txt.rfind('\n', 0, c['start']) + 1
        head = txt[line_start:c['start']].lstrip()
        javadoc = head.startswith('*') or head.startswith('/**')
        keys = [(c['note'], s) for s, _ in c['secs']] or [(c['note'], '-')]
        span = txt[c['start']:c['end']]
        if span.count('{') != span.count('}'):
            line = txt.count('\n', 0, c['start']) + 1
            left.append(f'{rel}:{line}: {span!r} (braces do not balance, rewrite it by hand)')
            continue
        if c['note'] is None or any(k not in maps for k in keys):
            line = txt.count('\n', 0, c['start']) + 1
            left.append(f'{rel}:{line}: {txt[c["start"]:c["end"]]!r} (unmapped: '
                        + ', '.join(f'{k[0]} §{k[1]}' for k in keys if k not in maps) + ')')
            continue
        for k in keys:
            seen_keys[k] = seen_keys.get(k, 0) + 1
        quals = [q for _, q in c['secs']] or ['']
        targets = [(maps[k], q) for k, q in zip(keys, quals)]
        out.append(txt[pos:c['start']])
        out.append(render(targets, javadoc))
        pos = c['end']
    out.append(txt[pos:])
    return ''.join(out), left


changed = 0
for dp, dns, fns in os.walk(root):
    dns[:] = [d for d in dns if d not in ('.git', 'target') and not d.startswith('target')]
    for fn in fns:
        if not fn.endswith('.java'):
            continue
        p = os.path.join(dp, fn)
        rel = os.path.relpath(p, root)
        txt = open(p, encoding='utf-8').read()
        new, left = rewrite(rel, txt)
        if new != txt:
            changed += 1
            if mode == 'apply':
                with open(p, 'w', encoding='utf-8') as f:
                    f.write(new)
        # whatever is left citing a note: unmapped citations after a rewrite, every one in --check
        for n, line in enumerate(new.split('\n') if mode == 'apply' else txt.split('\n'), 1):
            cites_note = re.search(r'shared/(spec|design)/|\b(' + NOTES + r')\.md', line)
            bare_sec = [m for m in SEC_RE.finditer(line) if not re.search(r'(RFC|JLS)\s*\S*\s*$', line[:m.start()])]
            if cites_note or bare_sec:
                problems.append(f'{rel}:{n}: cites a note outside the repository: {line.strip()}')
        if mode == 'apply':
            problems.extend(f'  ({x})' for x in left)

# the Markdown docs are not rewritten, only checked
for doc in [os.path.join(root, 'README.md')] + [os.path.join(root, 'docs', f) for f in sorted(os.listdir(os.path.join(root, 'docs')))]:
    if doc.endswith('.md') and os.path.isfile(doc):
        for n, line in enumerate(open(doc, encoding='utf-8'), 1):
            if re.search(r'shared/(spec|design)/|\b(' + NOTES + r')\.md', line):
                problems.append(f'{os.path.relpath(doc, root)}:{n}: cites a note outside the repository: {line.strip()}')

if mode == 'list':
    for (note, sec), n in sorted(seen_keys.items(), key=lambda kv: (kv[0][0], [int(x) if x.isdigit() else -1 for x in kv[0][1].split('.')])):
        print(f'{note:20} {"§" + sec if sec != "-" else "-":6} {n:4}  {maps[(note, sec)]}')
    sys.exit(0)
verb = 'rewrote' if mode == 'apply' else 'would rewrite'
print(f'replace-spec-refs: {verb} {changed} files')
if problems:
    for p in problems:
        print(p)
    print(f'replace-spec-refs: {len(problems)} problem(s)', file=sys.stderr)
    sys.exit(1)
PY
