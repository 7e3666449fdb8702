#!/usr/bin/env python3
"""Damages a cairo PDF of invitations the way a hand-edited or mixed-up file would be: on the
first page, the first card's QR code is replaced by the second card's (the image the first card
draws is the second's), the printed codes left as they are. Rewrites the streams' lengths and
the cross-reference table. Usage: replace-qr.py IN.pdf OUT.pdf"""
import re
import sys
import zlib

# A QR code as cairo writes it: an image mask (an XObject) drawn in the card's square.
DRAW = re.compile(rb"(/x\d+) Do")


source, target = sys.argv[1], sys.argv[2]
pdf = open(source, "rb").read()
objects = {int(m.group(1)): m.group(2) for m in re.finditer(rb"(\d+) 0 obj\s(.*?)endobj", pdf, re.S)}
trailer = re.search(rb"trailer\s*(<<.*?>>)", pdf, re.S).group(1)
done = False
for number in sorted(objects):
    body = objects[number]
    parts = re.match(rb"(.*?)stream\r?\n(.*)\r?\nendstream\s*$", body, re.S)
    if done or not parts or b"FlateDecode" not in parts.group(1):
        continue
    try:
        content = zlib.decompress(parts.group(2))
    except zlib.error:
        continue
    draws = list(DRAW.finditer(content))
    if len(draws) < 2:
        continue
    first, second = draws[0], draws[1]
    content = content[:first.start(1)] + second.group(1) + content[first.end(1):]
    packed = zlib.compress(content)
    head = parts.group(1)
    length = re.search(rb"/Length (\d+)( 0 R)?", head)
    if length.group(2):
        objects[int(length.group(1))] = b" %d\n" % len(packed)
    else:
        head = head.replace(length.group(0), b"/Length %d" % len(packed))
    objects[number] = head + b"stream\n" + packed + b"\nendstream\n"
    done = True
if not done:
    sys.exit("no page with two QR codes")
out = bytearray(b"%PDF-1.5\n%\xb5\xed\xae\xfb\n")
offsets = {}
for number in sorted(objects):
    offsets[number] = len(out)
    out += b"%d 0 obj\n" % number + objects[number] + b"endobj\n"
size = max(objects) + 1
xref = len(out)
out += b"xref\n0 %d\n0000000000 65535 f \n" % size
for number in range(1, size):
    out += (b"%010d 00000 n \n" % offsets[number]) if number in offsets else b"0000000000 00000 f \n"
trailer = re.sub(rb"/Size \d+", b"/Size %d" % size, trailer)
out += b"trailer\n" + trailer + b"\nstartxref\n%d\n%%%%EOF\n" % xref
open(target, "wb").write(bytes(out))
