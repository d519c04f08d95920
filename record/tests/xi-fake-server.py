#!/usr/bin/env python3
"""A protocol fixture: the least of an X server that lets a client open the
display and ask for XInput, answering with a chosen XInput version (or
without the extension). No Debian X server can be made to lack XInput or
to offer only XI 2.0/2.1, and touchtape must refuse both.

Usage: xi-fake-server.py none|MAJOR.MINOR READY_FILE

Listens on the abstract socket @/tmp/.X11-unix/X<N> of the first free N
from 600 on (Xlib tries it first on Linux; nothing in the file system),
writes N to READY_FILE once listening, serves clients one at a time, and
exits after 60 s.

Answered: the connection setup (one 24-bit TrueColor screen),
QueryExtension (only XInputExtension exists, unless "none"), XI's
GetExtensionVersion and XIQueryVersion, GetProperty (nothing) and
GetInputFocus (for XSync). Any other request gets a BadRequest error, so
a client never waits for a reply that does not come.
"""
import os
import socket
import struct
import sys
import time

XI_OPCODE = 131
X_QUERY_EXTENSION = 98
X_GET_PROPERTY = 20
X_GET_INPUT_FOCUS = 43
XI_GET_EXTENSION_VERSION = 1
XI_QUERY_VERSION = 47
BAD_REQUEST = 1
ROOT = 0x100
VISUAL = 0x21


def pad(n):
    return (4 - n % 4) % 4


def recv_exact(conn, n):
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def setup_reply(e):
    vendor = b"touchtape protocol fixture"
    formats = struct.pack(e + "BBB5x", 1, 1, 32) + struct.pack(e + "BBB5x", 24, 32, 32)
    visual = struct.pack(e + "IBBHIII4x", VISUAL, 4, 8, 256, 0xff0000, 0xff00, 0xff)
    depth = struct.pack(e + "BxH4x", 24, 1) + visual
    screen = struct.pack(e + "IIIIIHHHHHHIBBBB", ROOT, 0x20, 0xffffff, 0, 0, 1024, 768,
                         270, 203, 1, 1, VISUAL, 0, 0, 24, 1) + depth
    body = struct.pack(e + "IIIIHHBBBBBBBB4x", 12101000, 0x200000, 0x1fffff, 0, len(vendor),
                       65535, 1, 2, 0, 0, 32, 32, 8, 255)
    body += vendor + b"\0" * pad(len(vendor)) + formats + screen
    return struct.pack(e + "BxHHH", 1, 11, 0, len(body) // 4) + body


def reply(e, seq, data1=0, payload=b""):
    """A reply of 32 bytes or more; payload starts at byte 8."""
    payload += b"\0" * max(0, 24 - len(payload))
    extra = (len(payload) - 24 + 3) // 4
    payload += b"\0" * pad(len(payload))
    return struct.pack(e + "BBHI", 1, data1, seq, extra) + payload


def error(e, seq, major, minor):
    return struct.pack(e + "BBHIHB21x", 0, BAD_REQUEST, seq, 0, minor, major)


def serve(conn, xi):
    head = recv_exact(conn, 12)
    e = "<" if head[0:1] == b"l" else ">"
    _, _, _, nlen, dlen = struct.unpack(e + "BxHHHH2x", head)
    recv_exact(conn, nlen + pad(nlen) + dlen + pad(dlen))
    conn.sendall(setup_reply(e))
    seq = 0
    while True:
        hdr = recv_exact(conn, 4)
        major, minor, length = struct.unpack(e + "BBH", hdr)
        if length == 0:		# BIG-REQUESTS form: never enabled here
            return
        body = recv_exact(conn, length * 4 - 4)
        seq = (seq + 1) & 0xffff
        if major == X_QUERY_EXTENSION:
            n = struct.unpack(e + "H", body[0:2])[0]
            name = body[4:4 + n]
            present = xi is not None and name == b"XInputExtension"
            codes = (XI_OPCODE, 80, 150) if present else (0, 0, 0)
            conn.sendall(reply(e, seq, 0, struct.pack(e + "BBBB", present, *codes)))
        elif major == X_GET_PROPERTY:
            conn.sendall(reply(e, seq, 0, struct.pack(e + "III", 0, 0, 0)))
        elif major == X_GET_INPUT_FOCUS:
            conn.sendall(reply(e, seq, 0, struct.pack(e + "I", ROOT)))
        elif major == XI_OPCODE and minor == XI_GET_EXTENSION_VERSION:
            conn.sendall(reply(e, seq, XI_GET_EXTENSION_VERSION,
                               struct.pack(e + "HHB", xi[0], xi[1], 1)))
        elif major == XI_OPCODE and minor == XI_QUERY_VERSION:
            want = struct.unpack(e + "HH", body[0:4])
            # The server answers with the lower of the two versions.
            ver = min(tuple(want), xi)
            conn.sendall(reply(e, seq, XI_QUERY_VERSION, struct.pack(e + "HH", *ver)))
        else:
            conn.sendall(error(e, seq, major, minor))


def main():
    version, ready = sys.argv[1], sys.argv[2]
    xi = None if version == "none" else tuple(int(v) for v in version.split("."))
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for number in range(600, 700):
        try:
            srv.bind(f"\0/tmp/.X11-unix/X{number}")
            break
        except OSError:
            continue
    else:
        sys.exit("xi-fake-server: no free display number in 600..699")
    srv.listen(4)
    with open(ready + ".new", "w") as f:
        f.write(f"{number}\n")
    os.rename(ready + ".new", ready)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        srv.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            break
        conn.settimeout(10)
        try:
            serve(conn, xi)
        except (EOFError, OSError):
            pass
        finally:
            conn.close()


if __name__ == "__main__":
    main()
