#!/usr/bin/env python3
"""Reads an .xlsx with nothing but zipfile and xml.etree, checks the package
structure, and prints every cell, so that tests judge tl-xlsx by a reader
that shares no code with it.

  xlsxdump.py BOOK.xlsx              one line per sheet and per cell:
                                       == SHEETNAME
                                       A1 s "text"     (inline string, JSON)
                                       B2 n 0.5        (number, text as stored)
                                       C2 b 1          (boolean)
  xlsxdump.py BOOK.xlsx DIR|CSV...   compares every sheet with its CSV (read
                                     by Python's csv module); sheets must be
                                     the CSVs named, in this order when CSV
                                     files are named; prints "ok N cells"

Exit 1 with a message on any structural problem or difference.  Cell text
is decoded as Excel does: _xHHHH_ is the character U+HHHH.
"""
import csv
import json
import os
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

M = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
P = "{http://schemas.openxmlformats.org/package/2006/relationships}"
CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z")


def fail(msg):
    print("xlsxdump: " + msg, file=sys.stderr)
    sys.exit(1)


def unescape(s):
    return re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), s)


def col_index(letters):
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def col_name(i):
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def check_package(z):
    names = z.namelist()
    if len(names) != len(set(names)):
        fail("repeated zip entry")
    for n in names:
        info = z.getinfo(n)
        if info.date_time != (1980, 1, 1, 0, 0, 0):
            fail("%s: zip time %s, want 1980-01-01" % (n, info.date_time))
    if any("sharedStrings" in n for n in names):
        fail("shared strings part present")
    types = ET.fromstring(z.read("[Content_Types].xml"))
    over = {o.get("PartName"): o.get("ContentType") for o in types.iter(CT + "Override")}
    rels = ET.fromstring(z.read("_rels/.rels"))
    targets = [r.get("Target") for r in rels.iter(P + "Relationship")]
    if targets != ["xl/workbook.xml"]:
        fail("_rels/.rels targets %r" % targets)
    if not over.get("/xl/workbook.xml", "").endswith("sheet.main+xml"):
        fail("workbook content type missing")
    return over


def sheets(z):
    """[(name, part)] in workbook order."""
    over = check_package(z)
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    rid = {r.get("Id"): r.get("Target") for r in rels.iter(P + "Relationship")}
    out = []
    for s in wb.iter(M + "sheet"):
        part = "xl/" + rid[s.get(R + "id")]
        if not over.get("/" + part, "").endswith("worksheet+xml"):
            fail("%s: no worksheet content type" % part)
        out.append((s.get("name"), part))
    styles = ET.fromstring(z.read("xl/styles.xml"))
    xf = list(styles.find(M + "cellXfs"))[1]
    font = list(styles.find(M + "fonts"))[int(xf.get("fontId"))]
    if font.find(M + "b") is None:
        fail("style 1 (header) is not bold")
    return out


def cells(z, part):
    """[[(type, value)...] per row], checking the r= references."""
    root = ET.fromstring(z.read(part))
    rows = []
    for i, row in enumerate(root.find(M + "sheetData").iter(M + "row")):
        if row.get("r") != str(i + 1):
            fail("%s: row %s at position %d" % (part, row.get("r"), i + 1))
        vals, last = [], -1
        for c in row.iter(M + "c"):
            m = re.fullmatch(r"([A-Z]+)([0-9]+)", c.get("r"))
            if not m or m.group(2) != str(i + 1):
                fail("%s: cell %s in row %d" % (part, c.get("r"), i + 1))
            j = col_index(m.group(1))
            if j <= last:
                fail("%s: cell %s out of order" % (part, c.get("r")))
            vals.extend([None] * (j - last - 1))
            last = j
            t = c.get("t", "n")
            if t == "inlineStr":
                vals.append(("s", unescape("".join(c.find(M + "is").itertext()))))
            elif t in ("n", "b"):
                vals.append((t, c.find(M + "v").text))
            else:
                fail("%s: cell %s has type %s" % (part, c.get("r"), t))
            if i == 0 and c.get("s") != "1":
                fail("%s: header cell %s not styled" % (part, c.get("r")))
        rows.append(vals)
    return rows


def dump(z):
    for name, part in sheets(z):
        print("== " + name)
        for i, row in enumerate(cells(z, part)):
            for j, v in enumerate(row):
                if v is None:
                    continue
                text = json.dumps(v[1], ensure_ascii=False) if v[0] == "s" else v[1]
                print("%s%d %s %s" % (col_name(j), i + 1, v[0], text))


def expect(field):
    if field == "":
        return None
    if NUMBER.match(field) and abs(float(field)) != float("inf"):
        return ("n", field)
    if field in ("True", "False"):
        return ("b", "1" if field == "True" else "0")
    return ("s", field)


def compare(z, args):
    if len(args) == 1 and os.path.isdir(args[0]):
        files = {f[:-4]: os.path.join(args[0], f)
                 for f in os.listdir(args[0]) if f.endswith(".csv")}
        order = None
    else:
        files = {os.path.basename(f)[:-4]: f for f in args}
        order = [os.path.basename(f)[:-4] for f in args]
    got = sheets(z)
    names = [n for n, _ in got]
    if sorted(names) != sorted(files) or (order and names != order):
        fail("sheets %r, CSVs %r" % (names, order or sorted(files)))
    total = 0
    for name, part in got:
        with open(files[name], newline="", encoding="utf-8") as f:
            want = [[expect(x) for x in row] for row in csv.reader(f) if row]
        have = cells(z, part)
        if want and want[0]:
            want[0] = [("s", x[1]) if x else None for x in want[0]]
        if len(have) != len(want):
            fail("%s: %d rows, CSV has %d" % (name, len(have), len(want)))
        for i, (h, w) in enumerate(zip(have, want)):
            while w and w[-1] is None:
                w.pop()
            if h != w:
                fail("%s: row %d differs:\n  xlsx %r\n  csv  %r" % (name, i + 1, h, w))
            total += sum(x is not None for x in w)
    print("ok %d cells" % total)


def main():
    if len(sys.argv) < 2:
        fail("usage: xlsxdump.py BOOK.xlsx [DIR|CSV...]")
    try:
        z = zipfile.ZipFile(sys.argv[1])
        if z.testzip() is not None:
            fail("bad CRC")
        if len(sys.argv) == 2:
            dump(z)
        else:
            compare(z, sys.argv[2:])
    except (zipfile.BadZipFile, KeyError, ET.ParseError, OSError) as e:
        fail("%s: %s" % (sys.argv[1], e))


main()
