#!/usr/bin/env python3
"""What the man pages say of exit statuses and messages is what the
commands do (issue 34, point 16), beyond the option names docs-options.py
checks:
- each reading command's EXIT STATUS gives an unreadable file the status
  `touchtape CMD /nonexistent` exits with;
- SYNOPSIS names what --help's Usage line names (print's DEVICE);
- every command touchtape(1) says takes --force has it in its --help;
- a refused option says which commands take it (those whose --help lists
  it), as touchtape(1) promises.
Usage: docs-claims.py SRCDIR TOUCHTAPE"""
import os
import re
import subprocess
import sys

src, tt = sys.argv[1], sys.argv[2]
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def man(name):
    with open(os.path.join(src, "man", name), encoding="utf-8") as f:
        return f.read()


def plain(troff):
    t = re.sub(r"\\f[BIRP]", "", troff).replace("\\-", "-")
    return re.sub(r"^\.[A-Z]+ ?", "", t, flags=re.M)


def run(*args):
    p = subprocess.run([tt] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def exit_entries(page):
    """{status: text} of the EXIT STATUS section's .TP entries."""
    sec = page.split(".SH EXIT STATUS", 1)[1].split("\n.SH ", 1)[0]
    out = {}
    for m in re.finditer(r"\.TP\n\.B (\d)\n(.*?)(?=\n\.TP|\Z)", sec, re.S):
        out[int(m.group(1))] = plain(m.group(2)).lower()
    return out


for cmd in ["print", "validate", "analyze", "inspect", "convert"]:
    entries = exit_entries(man("touchtape-%s.1" % cmd))
    rc, _, err = run(cmd, "/nonexistent/recording.jsonl")
    said = [s for s, t in entries.items() if re.search(r"(could|can) ?not be opened|(file|input) that (can|could) ?not be read|unreadable", t)]
    if not entries:
        continue
    if said != [rc]:
        fail("touchtape-%s(1) gives an unreadable file exit %s; it exits %d" % (cmd, said or "nothing", rc))
    else:
        print("ok: %s: an unreadable file is exit %d, as its page says" % (cmd, rc))

for page in sorted(os.listdir(os.path.join(src, "man"))):
    m = re.match(r"touchtape-(\w+)\.1$", page)
    if not m:
        continue
    cmd = m.group(1)
    syn = plain(man(page).split(".SH SYNOPSIS", 1)[1].split("\n.SH ", 1)[0])
    usage = run(cmd, "--help")[1].splitlines()[0]
    for word in re.findall(r"\b[A-Z]{3,}\b", usage):
        if word not in syn and word != "OPTIONS":
            fail("touchtape-%s(1) SYNOPSIS lacks %s, which --help's usage names" % (cmd, word))

# touchtape(1): "--force always overrides a refusal made for safety
# (record: ...; replay: ...)": each command named takes it.
top = plain(man("touchtape.1"))
m = re.search(r"--force\s+always overrides.*?\((.*?)\)", top, re.S)
for cmd in re.findall(r"(\w+):", m.group(1) if m else ""):
    if "--force" not in run(cmd, "--help")[1]:
        fail("touchtape(1) says %s takes --force; its --help does not" % cmd)
    else:
        print("ok: %s takes --force, as touchtape(1) says" % cmd)

# A refused option says which commands take it: the commands whose
# --help lists it, none other.
def helps_with(opt):
    names = [c for c in COMMANDS if re.search(r"(^|[ ,])%s\b(?!-)" % re.escape(opt), run(c, "--help")[1], re.M)]
    return names


def said_takers(err):
    m = re.search(r"is not an option of \w+; ([a-z, ]+?) takes? it", err)
    if not m:
        return None
    return re.split(r", | and ", m.group(1))


COMMANDS = ["print", "validate", "list", "record", "replay", "convert", "analyze", "diff", "inspect", "regress"]
if "says which commands take it" in top.replace("\n", " "):
    for args in (["record", "--desc", "x.desc"], ["list", "--from", "1s"], ["record", "--device", "0"],
                 ["print", "--plot", "x.svg", "x.jsonl"], ["validate", "--json", "x.jsonl"], ["print", "-T", "5ms", "x"]):
        rc, _, err = run(*args)
        want = [c for c in helps_with(args[1]) if c != args[0]]
        got = said_takers(err)
        if rc != 2 or got != want:
            fail("touchtape %s: exit %d, names %s, the --help texts %s: %s" % (" ".join(args), rc, got, want, err.strip()[:200]))
        else:
            print("ok: touchtape %s says %s take it" % (" ".join(args), ", ".join(got)))
    rc, _, err = run("print", "--no-such-option", "x.jsonl")
    if rc != 2 or "not an option of print (nor of any other command)" not in err:
        fail("touchtape print --no-such-option: exit %d: %s" % (rc, err.strip()[:160]))
    else:
        print("ok: an option no command takes is said so")
else:
    fail("touchtape(1) no longer says a refused option names the commands that take it")

sys.exit(1 if failures else 0)
