#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man pages against the program, for every command:

  * each command of `touchtape --help` has a page man/touchtape-CMD.1 that
    the build installs (dist_man_MANS) and that touchtape(1) refers to;
  * every option of `touchtape CMD --help` (long names and short letters)
    is an item of the page's OPTIONS section, and every option item there is
    in --help (options a page takes from touchtape(1)'s COMMON OPTIONS, when
    it refers to that section, count as documented);
  * each page's .TH says the version `touchtape --version` prints, and every
    touchtape-*(N) page a page refers to exists.

Both sides are parsed generically, so when an option is added or renamed
the failure says what is missing where ("touchtape-analyze.1 lacks
--strict"). Usage: docs-options.py SRCDIR TOUCHTAPE
"""
import glob
import os
import re
import subprocess
import sys

LONG = re.compile(r'--[a-z0-9][a-z0-9-]*')
SHORT = re.compile(r'(?:^|[\s,"\[|(])(-[A-Za-z0-9])(?![\w=-])')
# An option line of --help: "  -o, --output FILE", "      --xi[=DISPLAY]", "  -q  ..."
HELP_OPTION = re.compile(r'^ {2,8}(-[A-Za-z0-9](?:, )?)?(--[a-z0-9][a-z0-9-]*)?(?=[\s\[=]|$)')
ESCAPES = [(r'\-', '-'), (r'\fB', ''), (r'\fI', ''), (r'\fR', ''), (r'\fP', ''),
           (r'\(aq', "'"), (r'\&', ''), (r'\e', '\\')]

failures = []


def fail(msg):
    failures.append(msg)
    print(f'FAIL: {msg}', file=sys.stderr)


def run(touchtape, *args):
    p = subprocess.run([touchtape, *args], capture_output=True, text=True)
    return p.stdout + p.stderr


def unescape(line):
    for a, b in ESCAPES:
        line = line.replace(a, b)
    return line


def help_options(text, pairs=None):
    """Long and short options of a --help text; PAIRS gets short -> long."""
    opts = set()
    for line in text.splitlines():
        if line.startswith('Usage:'):
            # touchtape's own usage lists its options in brackets
            if re.match(r'^Usage: touchtape \[', line):
                opts |= set(LONG.findall(line))
            continue
        m = HELP_OPTION.match(line)
        if m and (m.group(1) or m.group(2)):
            if m.group(1):
                opts.add(m.group(1).rstrip(', '))
            if m.group(2):
                opts.add(m.group(2))
            if m.group(1) and m.group(2) and pairs is not None:
                pairs[m.group(1).rstrip(', ')] = m.group(2)
    return opts


def sections(path):
    """{title: [lines]} of a man page, unescaped."""
    out, title = {}, ''
    with open(path, encoding='utf-8') as f:
        for line in f.read().splitlines():
            if line.startswith('.SH'):
                title = line[3:].strip().strip('"')
                out.setdefault(title, [])
            elif title:
                out[title].append(line)
    return out


def item_options(lines, pairs=None):
    """Options named by the tags of .TP items (the line after each .TP)."""
    opts = set()
    for i, line in enumerate(lines[:-1]):
        if line.startswith('.TP'):
            tag = unescape(lines[i + 1])
            longs, shorts = LONG.findall(tag), SHORT.findall(tag)
            opts |= set(longs) | set(shorts)
            if longs and shorts and pairs is not None:
                pairs[shorts[0]] = longs[0]
    return opts


def man_options(page, common, pairs=None):
    secs = sections(page)
    own = set()
    for title, lines in secs.items():
        if title.endswith('OPTIONS') and title != 'COMMON OPTIONS':
            own |= item_options(lines, pairs)
    text = '\n'.join(l for ls in secs.values() for l in ls)
    shared = common if 'COMMON OPTIONS' in text else set()
    return own, shared


def commands(touchtape):
    text = run(touchtape, '--help')
    block = text.split('Commands:', 1)[1] if 'Commands:' in text else ''
    return [m.group(1) for m in re.finditer(r'^  ([a-z][a-z-]*)\s', block, re.M)]


def check_page(cmd, page, help_text, common, long_only=False):
    name = os.path.basename(page)
    help_pairs, man_pairs = {}, {}
    want = help_options(help_text, help_pairs)
    own, shared = man_options(page, common, man_pairs)
    if long_only:   # touchtape --help gives a usage line, no option list
        own = {o for o in own if o.startswith('--')}
    for short, long in sorted(help_pairs.items()):
        if man_pairs.get(short, long) != long:
            fail(f'{name} gives {short} as {man_pairs[short]}; touchtape {cmd} --help as {long}'
                 .replace('touchtape  ', 'touchtape '))
    for opt in sorted(want - own - shared):
        fail(f'{name} lacks {opt} (in touchtape {cmd} --help)'.replace('touchtape  ', 'touchtape '))
    for opt in sorted(own - want):
        fail(f'{name} documents {opt}, which touchtape {cmd} --help does not list'
             .replace('touchtape  ', 'touchtape '))
    return len(want)


def main():
    srcdir, touchtape = sys.argv[1], sys.argv[2]
    mandir = os.path.join(srcdir, 'man')
    version = re.search(r'touchtape (\S+)', run(touchtape, '--version')).group(1)
    installed = set()
    for mk in glob.glob(os.path.join(srcdir, '**', '*.mk'), recursive=True) + \
            [os.path.join(srcdir, 'Makefile.am')]:
        with open(mk) as f:
            text = f.read().replace('\\\n', ' ')
        for m in re.finditer(r'dist_man_MANS\s*\+?=(.*)', text):
            installed |= {os.path.basename(w) for w in m.group(1).split()}
    top = os.path.join(mandir, 'touchtape.1')
    common = item_options(sections(top).get('COMMON OPTIONS', []))
    with open(top) as f:
        top_text = unescape(f.read())

    checked = check_page('', top, run(touchtape, '--help'), set(), long_only=True)
    cmds = commands(touchtape)
    if not cmds:
        fail('touchtape --help lists no commands')
    for cmd in cmds:
        page = os.path.join(mandir, f'touchtape-{cmd}.1')
        if not os.path.exists(page):
            fail(f'man/touchtape-{cmd}.1 is missing (touchtape {cmd} has no man page)')
            continue
        if f'touchtape-{cmd}.1' not in installed:
            fail(f'man/touchtape-{cmd}.1 is not in dist_man_MANS: make install leaves it out')
        if not re.search(rf'\.BR touchtape-{cmd} \(1\)', top_text):
            fail(f'touchtape.1 does not refer to touchtape-{cmd}(1)')
        checked += check_page(cmd, page, run(touchtape, cmd, '--help'), common)
    for page in sorted(glob.glob(os.path.join(mandir, '*.[1-8]'))):
        with open(page) as f:
            text = unescape(f.read())
        # every page a page refers to exists ("touchtape-print(1)" did not)
        for ref, sec in sorted(set(re.findall(r'\b(touchtape-[a-z]+) \(([1-8])\)', text))):
            if not os.path.exists(os.path.join(mandir, f'{ref}.{sec}')):
                fail(f'{os.path.basename(page)} refers to {ref}({sec}), which has no page')
        # the first line that is not a comment or a preprocessor hint ('\" t)
        th = next((l for l in text.splitlines() if l.startswith('.TH')), '')
        if f'"touchtape {version}"' not in th:
            fail(f'{os.path.basename(page)}: .TH does not say "touchtape {version}": {th.strip()}')
    print(f'{len(cmds)} commands, {checked} options of --help checked against their pages; '
          f'{len(failures)} failure(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
