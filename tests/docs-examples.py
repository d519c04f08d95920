#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs every example of README.md and of the man pages.

Where the examples are:
  * README.md: fenced ```sh blocks;
  * man/*.1: .EX/.EE blocks (.nf/.fi is for other preformatted text, and an
    EXAMPLES section must use .EX).
Each complete shell command of a block (bash's own parsing decides where one
ends) is one example; one that ends with "&" runs in one shell with the rest
of its block. An annotation on the line before the block (or, in a
man page, anywhere between the previous .EE and the .EX) says where it runs:
      README.md:   <!-- example: WHERE [status=N] [free text] -->
      man page:    .\\" example: WHERE [status=N] [free text]
  WHERE is "host" (the default), "vm" (needs devices, uinput or X: run in one
  boot of the VM rig, as root, with Xorg) or "skip REASON".
  status=N is the expected exit status (default 0).
A command whose trailing comment says "Ctrl-C" is sent SIGINT, to its whole
process group as a terminal would, after a few seconds.

Every block runs in a fresh folder holding the bundled samples (samples/...)
and, for each file name an example reads, a recording made from a sample
(bug-1234.jsonl, tap.jsonl, touchpad.evemu, 'PS2 Mouse.desc', ...; see
make_input; in the VM, recordings stand for the short two-finger sample, so
replays take little VM time). Files an example writes (-o, --report,
--plot, >) are removed first. In the VM, /dev/input/eventN and eventN name a touchscreen called
"Wacom HID 5176 Finger" that is touched over and over, and the display :1
is the rig's Xorg.

Usage: docs-examples.py SRCDIR TOUCHTAPE SCRATCH     (host: all of it)
       docs-examples.py --guest SCRATCH               (inside the VM)
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

INTERRUPT_AFTER = 2.0     # seconds before the Ctrl-C of an example
TIMEOUT = 30.0            # an example that runs longer has failed
RECORDING_EXT = ('.jsonl', '.evemu', '.yml', '.yaml', '.desc', '.events', '.prop', '.gz', '.hid')
OUTPUT_OPTS = ('-o', '--output', '--report', '--plot', '-p')
SAMPLE = {  # file names the examples use -> the sample they stand for
    'tap': 'xi-ownership-reject-after-50',
    'kernel-and-x': 'xi-ownership-reject-after-50',
}
DEFAULT_SAMPLE = '3m-two-finger'
VM_SAMPLE = 'xi-touchscreen-two-finger'     # 0.4 s of frames: short replays
TOUCHPAD_SAMPLE = 'touchpad-two-finger-swipe'


HID_RECORDING = (
    '# docs-examples touchscreen\n'
    'R: 26 05 0d 09 04 a1 01 85 01 09 22 a1 02 09 42 15 00 25 01 75 01 95 01 81 02 c0 c0\n'
    'N: docs-examples touchscreen\n'
    'I: 18 04f3 30f1\n'
    'E: 000000.000000 2 01 01\n'
    'E: 000000.008000 2 01 00\n')


class Example:
    def __init__(self, where, line, cmd, annot):
        self.where = where          # "FILE:LINE" of the block
        self.line = line            # line of this command
        self.cmd = cmd
        self.kind = annot.get('kind', 'host')
        self.reason = annot.get('reason', '')
        self.status = int(annot.get('status', 0))
        self.interrupt = bool(re.search(r'#[^\'"]*Ctrl-C', cmd))

    def name(self):
        first = self.cmd.strip().splitlines()[0]
        return f'{self.where}: {first}'


def parse_annotation(text):
    words = text.split()
    annot = {}
    if not words:
        return annot
    if words[0] in ('host', 'vm', 'skip'):
        annot['kind'] = words.pop(0)
    if annot.get('kind') == 'skip':
        annot['reason'] = ' '.join(words) or 'no reason given'
    for w in words:
        if w.startswith('status='):
            annot['status'] = w.split('=', 1)[1]
    return annot


MAN_ESCAPES = [(r'\-', '-'), (r'\(aq', "'"), (r'\(ga', '`'), (r'\(dq', '"'),
               (r'\(rs', '\\'), (r'\&', ''), (r'\fB', ''), (r'\fI', ''),
               (r'\fR', ''), (r'\fP', ''), (r'\ ', ' '), (r'\e', '\\')]


def man_unescape(line):
    for a, b in MAN_ESCAPES:
        line = line.replace(a, b)
    return line


def man_blocks(path, problems):
    """(line, text, annotation) of each .EX block of a man page."""
    blocks, annot, body, start, section, section_ex = [], {}, None, 0, '', {}
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        m = re.match(r'^\.\\"\s*example:\s*(.*)$', line)
        if body is None and m:
            annot = parse_annotation(m.group(1))
        elif line.startswith('.SH'):
            section = line[3:].strip().strip('"')
            section_ex.setdefault(section, 0)
        elif line.startswith('.nf') and section == 'EXAMPLES':
            problems.append(f'{path}:{n}: EXAMPLES uses .nf; write runnable examples in .EX/.EE')
        elif line.startswith('.EX'):
            body, start = [], n
            section_ex[section] = section_ex.get(section, 0) + 1
        elif line.startswith('.EE') and body is not None:
            blocks.append((start, '\n'.join(body), annot))
            body, annot = None, {}
        elif body is not None and not line.startswith('.\\"'):
            body.append(man_unescape(line))
    if 'EXAMPLES' in section_ex and not section_ex['EXAMPLES']:
        problems.append(f'{path}: its EXAMPLES section has no .EX block')
    return blocks


def md_blocks(path):
    """(line, text, annotation) of each ```sh block of a Markdown file."""
    blocks, body, start, indent, prev = [], None, 0, '', ''
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        m = re.match(r'^(\s*)```(\w*)\s*$', line)
        if body is None and m and m.group(2) == 'sh':
            body, start, indent = [], n, m.group(1)
            am = re.match(r'^\s*<!--\s*example:\s*(.*?)\s*-->\s*$', prev)
            annot = parse_annotation(am.group(1)) if am else {}
        elif body is not None and m:
            blocks.append((start, '\n'.join(body), annot))
            body = None
        elif body is not None:
            body.append(line[len(indent):] if line.startswith(indent) else line)
        if line.strip():
            prev = line
    return blocks


def complete(text):
    if text.rstrip().endswith('\\'):
        return False
    return subprocess.run(['bash', '-n', '-c', text], stderr=subprocess.DEVNULL).returncode == 0


def split_commands(text):
    """(offset, command) for each complete command of a block; a command
    put in the background (ending with &) runs in one shell with the rest
    of its block, which it is there for."""
    cur, first, background = [], 0, False
    for i, line in enumerate(text.splitlines()):
        if not cur and (not line.strip() or line.lstrip().startswith('#')):
            continue
        if not cur:
            first = i
        cur.append(line)
        background = background or bool(re.search(r'(?<!&)&\s*(#.*)?$', line))
        if complete('\n'.join(cur)) and not background:
            yield first, '\n'.join(cur)
            cur = []
    if cur:
        yield first, '\n'.join(cur)


def extract(srcdir, problems):
    examples = []
    sources = [('README.md', md_blocks(os.path.join(srcdir, 'README.md')))]
    mandir = os.path.join(srcdir, 'man')
    for page in sorted(os.listdir(mandir)):
        if re.search(r'\.[1-8]$', page):
            sources.append((f'man/{page}', man_blocks(os.path.join(mandir, page), problems)))
    for rel, blocks in sources:
        for start, text, annot in blocks:
            for off, cmd in split_commands(text):
                examples.append(Example(f'{rel}:{start}', start + 1 + off, cmd, annot))
    return examples


def words_of(cmd):
    """The words of a command, and of the scripts it hands to sh -c."""
    try:
        words = shlex.split(cmd, comments=True)
    except ValueError:
        return []
    return words + [x for w in words if '\n' in w or ' ' in w.strip() for x in words_of(w)]


def outputs(cmd):
    """The files a command writes (to be absent when it starts)."""
    words = words_of(cmd)
    outs = []
    for i, w in enumerate(words):
        if w in OUTPUT_OPTS + ('>',) and i + 1 < len(words):
            outs.append(words[i + 1])
        elif '=' in w and w.split('=', 1)[0] in OUTPUT_OPTS:
            outs.append(w.split('=', 1)[1])
    return [o for o in outs if o != '-']


def inputs(cmd):
    words = words_of(cmd)
    outs = set(outputs(cmd))
    return [w for w in words if w.endswith(RECORDING_EXT) and w not in outs
            and '*' not in w and not w.startswith('-')]


def sample_for(stem, vm):
    if stem in SAMPLE:
        return SAMPLE[stem]
    if 'touchpad' in stem.lower():
        return TOUCHPAD_SAMPLE
    return VM_SAMPLE if vm else DEFAULT_SAMPLE


def run_tt(touchtape, *args):
    subprocess.run([touchtape, *args], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def make_session(samples, path):
    """Two devices on one clock: a touchscreen (id 0) and a touchpad (id 1)."""
    def records(name, dev):
        with open(os.path.join(samples, name + '.jsonl')) as f:
            for line in f:
                r = json.loads(line)
                if r.get('type') == 'device':
                    r['id'] = dev
                elif r.get('type') == 'frame':
                    r['dev'] = dev
                yield r
    a = list(records(DEFAULT_SAMPLE, 0))
    b = list(records(TOUCHPAD_SAMPLE, 1))
    head = [a[0]] + [r for r in a + b if r.get('type') == 'device']
    frames = sorted((r for r in a + b if r.get('type') == 'frame'), key=lambda r: r['t'])
    with open(path, 'w') as f:
        for r in head + frames:
            f.write(json.dumps(r, separators=(',', ':')) + '\n')


def make_input(touchtape, samples, folder, name, vm):
    """A recording called NAME, made from the sample it stands for."""
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path) or folder, exist_ok=True)
    if name.endswith('.gz'):    # the same recording, compressed
        make_input(touchtape, samples, folder, name[:-3], vm)
        subprocess.run(['gzip', '-f', os.path.join(folder, name[:-3])], check=True)
        return
    stem, ext = os.path.splitext(os.path.basename(name))
    sample = os.path.join(samples, sample_for(stem, vm) + '.jsonl')
    if stem == 'session' and ext == '.jsonl':
        make_session(samples, path)
    elif ext == '.jsonl':
        shutil.copy(sample, path)
    elif ext == '.evemu':
        run_tt(touchtape, 'convert', '--to', 'evemu', sample, '-o', path)
    elif ext in ('.yml', '.yaml'):
        run_tt(touchtape, 'convert', '--to', 'libinput', sample, '-o', path)
    elif ext == '.hid':     # hid-recorder: a one-finger digitizer, two reports
        with open(path, 'w') as f:
            f.write(HID_RECORDING)
    else:   # a description (.desc, .prop) or events-only (.events) evemu file
        evemu = path + '.tmp'
        run_tt(touchtape, 'convert', '--to', 'evemu', os.path.join(samples, TOUCHPAD_SAMPLE + '.jsonl'),
               '-o', evemu)
        with open(evemu) as f, open(path, 'w') as out:
            for line in f:
                if line.startswith('E:') == (ext == '.events'):
                    out.write(line)
        os.unlink(evemu)


def prepare(touchtape, srcdir, folder, cmds, vm):
    """A fresh folder for one block of examples."""
    os.makedirs(folder)
    shutil.copytree(os.path.join(srcdir, 'samples'), os.path.join(folder, 'samples'))
    rec = os.path.join(folder, 'recordings')
    os.makedirs(rec)
    for s in (DEFAULT_SAMPLE, TOUCHPAD_SAMPLE, 'xi-ownership-accept'):
        shutil.copy(os.path.join(srcdir, 'samples', s + '.jsonl'), rec)
    for cmd in cmds:
        for name in inputs(cmd):
            if not os.path.exists(os.path.join(folder, name)):
                make_input(touchtape, os.path.join(srcdir, 'samples'), folder, name, vm)
    for cmd in cmds:
        for name in outputs(cmd):
            p = os.path.join(folder, name)
            if os.path.isfile(p):
                os.unlink(p)
    if vm:   # the examples that start the VM rig: they already run in it
        shim = os.path.join(folder, 'tests', 'vm', 'run')
        os.makedirs(os.path.dirname(shim))
        with open(shim, 'w') as f:
            f.write('#!/bin/sh\n# In the VM already: run the command.\n'
                    'while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done\n'
                    'shift; exec "$@"\n')
        os.chmod(shim, 0o755)


def make_bindir(touchtape, folder):
    """touchtape on PATH, and sudo where there is none (the VM runs as root)."""
    os.makedirs(folder, exist_ok=True)
    link = os.path.join(folder, 'touchtape')
    if not os.path.exists(link):
        os.symlink(touchtape, link)
    if not shutil.which('sudo'):
        with open(os.path.join(folder, 'sudo'), 'w') as f:
            f.write('#!/bin/sh\nexec "$@"\n')
        os.chmod(os.path.join(folder, 'sudo'), 0o755)
    return folder


def ctrl_c_when_running(p, log):
    """SIGINT to the process group, as Ctrl-C does, once the command has
    run INTERRUPT_AFTER seconds and said something (record says how to stop
    it once it can be stopped; a busy machine may take longer to get there)."""
    t0 = time.monotonic()
    while p.poll() is None:
        waited = time.monotonic() - t0
        if (waited >= INTERRUPT_AFTER and os.path.getsize(log) > 0) or waited > TIMEOUT / 2:
            os.killpg(p.pid, signal.SIGINT)
            return
        time.sleep(0.1)


def run_one(cmd, cwd, env, log, interrupt):
    """The exit status as a shell reports it (128+N for signal N)."""
    with open(log, 'w') as out:
        p = subprocess.Popen(['bash', '-o', 'pipefail', '-c', cmd], cwd=cwd, env=env,
                             stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            if interrupt:
                ctrl_c_when_running(p, log)
            rc = p.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            out.write(f'\n(killed after {TIMEOUT:.0f} s)\n')
            return 'timeout'
    return 128 - rc if rc < 0 else rc


def tail(path, n=15):
    with open(path, errors='replace') as f:
        return ''.join('  | ' + l for l in f.readlines()[-n:])


def report(ex, status, log, seconds):
    if status == ex.status:
        print(f'ok: {ex.name()} ({seconds:.1f} s)')
        return 0
    print(f'FAIL: {ex.where.split(":")[0]}:{ex.line}: example exits {status}, want {ex.status}: '
          f'{ex.cmd.strip()}', file=sys.stderr)
    print(tail(log), file=sys.stderr)
    return 1


# ---- inside the VM -------------------------------------------------------

WACOM = 'Wacom HID 5176 Finger'


def guest_device(srcdir, scratch):
    """A touchscreen touched over and over; returns its node."""
    desc = os.path.join(scratch, 'wacom.desc')
    with open(os.path.join(srcdir, 'tests/vm/data/touchscreen.desc')) as f:
        text = re.sub(r'^N: .*$', 'N: ' + WACOM, f.read(), flags=re.M)
    with open(desc, 'w') as f:
        f.write(text)
    out = open(os.path.join(scratch, 'evemu-device.out'), 'w+')
    subprocess.Popen(['evemu-device', desc], stdout=out, stderr=subprocess.STDOUT)
    node = None
    for _ in range(300):
        out.seek(0)
        m = re.search(r'/dev/input/event\d+', out.read())
        if m and os.path.exists(m.group(0)):
            node = m.group(0)
            break
        time.sleep(0.05)
    if not node:
        sys.exit('evemu-device made no device')
    events = os.path.join(srcdir, 'tests/vm/data/two-finger.events')
    subprocess.Popen(['sh', '-c', f'while :; do evemu-play {node} < "{events}"; sleep 0.2; done'],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)   # Xorg hot-adds it
    return node


def guest_command(cmd, node):
    cmd = re.sub(r'/dev/input/event\d+', node, cmd)
    cmd = re.sub(r'(?<![\w/])event\d+\b', os.path.basename(node), cmd)
    return cmd.replace('--xi=:1', '--xi=' + os.environ.get('DISPLAY', ':0'))


def guest(scratch):
    with open(os.path.join(scratch, 'vm.json')) as f:
        todo = json.load(f)
    node = guest_device(todo['srcdir'], scratch)
    env = dict(os.environ, PATH=todo['bindir'] + ':' + os.environ['PATH'])
    results = {}
    for i, ex in enumerate(todo['examples']):
        log = os.path.join(scratch, f'vm-{i}.log')
        t0 = time.monotonic()
        status = run_one(guest_command(ex['cmd'], node), ex['folder'], env, log, ex['interrupt'])
        results[i] = (status, time.monotonic() - t0)
    with open(os.path.join(scratch, 'vm-results.json'), 'w') as f:
        json.dump(results, f)


# ---- on the host ---------------------------------------------------------

def blocks_of(examples):
    """Examples grouped by block, in order."""
    groups = {}
    for ex in examples:
        groups.setdefault(ex.where, []).append(ex)
    return groups


def run_host(examples, touchtape, srcdir, scratch, bindir, env):
    failures = 0
    for n, (where, exs) in enumerate(blocks_of(examples).items()):
        folder = os.path.join(scratch, f'host-{n}')
        prepare(touchtape, srcdir, folder, [e.cmd for e in exs], vm=False)
        for i, ex in enumerate(exs):
            log = os.path.join(scratch, f'host-{n}-{i}.log')
            t0 = time.monotonic()
            status = run_one(ex.cmd, folder, env, log, ex.interrupt)
            failures += report(ex, status, log, time.monotonic() - t0)
    return failures


def run_vm(examples, touchtape, srcdir, scratch, bindir):
    if not examples:
        return 0
    todo = {'srcdir': srcdir, 'bindir': bindir, 'examples': []}
    ordered = []
    for n, (where, exs) in enumerate(blocks_of(examples).items()):
        folder = os.path.join(scratch, f'vm-{n}')
        prepare(touchtape, srcdir, folder, [e.cmd for e in exs], vm=True)
        for ex in exs:
            todo['examples'].append({'cmd': ex.cmd, 'folder': folder, 'interrupt': ex.interrupt})
            ordered.append(ex)
    with open(os.path.join(scratch, 'vm.json'), 'w') as f:
        json.dump(todo, f)
    rc = subprocess.run([os.path.join(srcdir, 'tests/vm/run'), '--xorg', '--timeout', '400',
                         '--rw', scratch, '--', 'python3', os.path.abspath(__file__),
                         '--guest', scratch], cwd=scratch).returncode
    if rc == 77:
        print('SKIP: the VM rig cannot start: the device examples were not run')
        return 0
    try:
        with open(os.path.join(scratch, 'vm-results.json')) as f:
            results = json.load(f)
    except OSError:
        print(f'FAIL: the VM run (status {rc}) left no results', file=sys.stderr)
        return 1
    failures = 0
    for i, ex in enumerate(ordered):
        log = os.path.join(scratch, f'vm-{i}.log')
        status, seconds = results.get(str(i), ('not run', 0))
        failures += report(ex, status, log, seconds)
    return failures


def main():
    if sys.argv[1] == '--guest':
        guest(sys.argv[2])
        return 0
    srcdir, touchtape, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
    only = os.environ.get('DOCS_EXAMPLES', 'host vm').split()
    problems = []
    examples = extract(srcdir, problems)
    for p in problems:
        print(f'FAIL: {p}', file=sys.stderr)
    for ex in examples:
        if ex.kind == 'skip':
            print(f'skip: {ex.name()}: {ex.reason}')
    bindir = make_bindir(touchtape, os.path.join(scratch, 'bin'))
    env = dict(os.environ, PATH=bindir + ':' + os.environ['PATH'])
    failures = len(problems)
    if 'host' in only:
        failures += run_host([e for e in examples if e.kind == 'host'], touchtape, srcdir,
                             scratch, bindir, env)
    if 'vm' in only:
        failures += run_vm([e for e in examples if e.kind == 'vm'], touchtape, srcdir,
                           scratch, bindir)
    counts = {k: sum(e.kind == k for e in examples) for k in ('host', 'vm', 'skip')}
    print(f'{len(examples)} examples: {counts["host"]} on the host, {counts["vm"]} in the VM, '
          f'{counts["skip"]} skipped; {failures} failure(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
