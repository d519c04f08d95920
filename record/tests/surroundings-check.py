#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares what `touchtape record` stored of its devices' surroundings
with what the system says of them now, on the machine that recorded
(the VM rig, with udevd): for every device record with a node,

  * "syspath" is /sys + `udevadm info --query=path`;
  * "udev" holds every property `udevadm info --query=property` lists,
    with the same value, but USEC_INITIALIZED (a time, not recorded) and
    the serial numbers record leaves out without --with-serials
    (names containing SERIAL, ending in UNIQ, DEVLINKS), which must then
    be absent; nothing more;
  * "driver" is the driver of the nearest parent in sysfs that has one;
  * "quirks", when recorded (--libinput), are the lines of
    `libinput quirks list NODE` that look like Name=value;
  * the header's "system" has os-release's ID and VERSION_ID.

Usage: surroundings-check.py RECORDING [--with-serials]
Prints one line per finding; exit 0 when everything matches, 1 otherwise,
2 on a bad recording. Meant for the replay VM test: record a replayed
device while it exists, then run this before it goes.
"""
import json
import os
import re
import subprocess
import sys


def is_serial(name):
    return "SERIAL" in name or name.endswith("UNIQ") or name == "DEVLINKS"


def udev_properties(node):
    out = subprocess.run(["udevadm", "info", "--query=property", "--name", node],
                         capture_output=True, text=True, check=True).stdout
    props = {}
    for line in out.splitlines():
        name, _, value = line.partition("=")
        props[name] = value
    props.pop("USEC_INITIALIZED", None)
    return props


def nearest_driver(syspath):
    d = syspath
    while d.startswith("/sys/devices"):
        link = os.path.join(d, "driver")
        if os.path.islink(link):
            return os.path.basename(os.readlink(link))
        d = os.path.dirname(d)
    return None


def quirks(node):
    out = subprocess.run(["libinput", "quirks", "list", node], capture_output=True, text=True).stdout
    return [l for l in out.splitlines() if re.match(r"^[A-Za-z0-9]+=", l)]


def check_udev(dev, node, with_serials, findings):
    want = udev_properties(node)
    got = dev.get("udev")
    if got is None:
        findings.append("%s: no udev properties recorded" % node)
        return
    for name, value in want.items():
        if is_serial(name) and not with_serials:
            if name in got:
                findings.append("%s: %s recorded without --with-serials" % (node, name))
        elif got.get(name) != value:
            findings.append("%s: %s is %r in the recording, %r in udev" % (node, name, got.get(name), value))
    for name in got:
        if name not in want:
            findings.append("%s: %s recorded but not in udev" % (node, name))


def check_device(dev, with_serials, findings):
    node = dev["node"]
    path = subprocess.run(["udevadm", "info", "--query=path", "--name", node],
                          capture_output=True, text=True, check=True).stdout.strip()
    if dev.get("syspath") != "/sys" + path:
        findings.append("%s: syspath %r, udev says /sys%s" % (node, dev.get("syspath"), path))
    if dev.get("driver") != nearest_driver(os.path.realpath("/sys" + path)):
        findings.append("%s: driver %r, sysfs says %r" % (node, dev.get("driver"),
                                                          nearest_driver(os.path.realpath("/sys" + path))))
    check_udev(dev, node, with_serials, findings)
    if "quirks" in dev and dev["quirks"] != quirks(node):
        findings.append("%s: quirks %r, libinput lists %r" % (node, dev["quirks"], quirks(node)))


def os_release():
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            continue
        fields = dict(re.findall(r'^([A-Z_]+)=["\']?(.*?)["\']?$', text, re.M))
        return fields.get("ID"), fields.get("VERSION_ID")
    return None, None


def main():
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with_serials = "--with-serials" in sys.argv[2:]
    findings = []
    try:
        with open(sys.argv[1]) as f:
            records = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        print("%s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 2
    system = records[0].get("system", {})
    os_id, version_id = os_release()
    if (system.get("os_id"), system.get("os_version_id")) != (os_id, version_id):
        findings.append("system: os %r %r, os-release says %r %r" % (
            system.get("os_id"), system.get("os_version_id"), os_id, version_id))
    devices = [r for r in records if r.get("type") == "device" and r.get("node")]
    for dev in devices:
        check_device(dev, with_serials, findings)
    for line in findings:
        print(line)
    print("%d device%s checked, %d finding%s" % (len(devices), "" if len(devices) == 1 else "s",
                                                len(findings), "" if len(findings) == 1 else "s"))
    return 1 if findings or not devices else 0


if __name__ == "__main__":
    sys.exit(main())
