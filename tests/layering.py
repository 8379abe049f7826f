#!/usr/bin/python3
"""Checks the layer order of model/ and widgets/ (see model/README.md).

Each library is split into area folders with a rank; a file may include headers of its own area
and of areas of a lower rank, never of a higher rank or of another area of the same rank.
model/ includes nothing of widgets/ and no Qt GUI module. Usage: layering.py REPO_ROOT.
Prints every include that goes against the order and exits 1 if there is one.
"""
import os
import re
import sys

# area -> rank; areas of one rank may not include each other.
LAYERS = {
    "model": {"util": 0, "msgpack": 1, "codec": 2, "trace": 3, "filter": 4, "timeline": 4,
              "stats": 5, "cache": 5, "whatif": 6, "compare": 7, "itemmodels": 8, "export": 8, "report": 9, ".": 10},
    "widgets": {"common": 0, "records": 1, "timeline": 1, "panes": 2, "report": 2, "shell": 3},
}
GUI_MODULES = re.compile(r"^\s*#\s*include\s+<(QtGui|QtWidgets|QtPrintSupport|QtSvg|Q[A-Z]\w*Widget|"
                         r"QPainter|QPixmap|QImage|QColor|qcustomplot)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def area_of(lib, path):
    """The area of a file under lib/ (its first folder, or '.' at the top)."""
    rel = os.path.relpath(path, lib)
    head = rel.split(os.sep)[0]
    return head if os.sep in rel else "."


def main(root):
    problems = []
    headers = {}  # "area/name.h" -> (lib, area)
    for lib in LAYERS:
        base = os.path.join(root, lib)
        for dirpath, _, names in os.walk(base):
            for n in names:
                if n.endswith(".h"):
                    rel = os.path.relpath(os.path.join(dirpath, n), base)
                    headers[rel] = (lib, area_of(base, os.path.join(dirpath, n)))
    for lib, ranks in LAYERS.items():
        base = os.path.join(root, lib)
        for dirpath, _, names in os.walk(base):
            for n in names:
                if not n.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, n)
                me = area_of(base, path)
                if me not in ranks:
                    problems.append(f"{os.path.relpath(path, root)}: folder '{me}' is not an area of {lib}/")
                    continue
                text = open(path, encoding="utf-8").read()
                if lib == "model":
                    for m in GUI_MODULES.finditer(text):
                        problems.append(f"{os.path.relpath(path, root)}: model/ includes the GUI header <{m.group(1)}")
                for m in INCLUDE.finditer(text):
                    target = m.group(1)
                    if target not in headers:
                        continue  # generated, test or same-folder helper
                    tlib, tarea = headers[target]
                    where = f"{os.path.relpath(path, root)}: includes \"{target}\""
                    if lib == "model" and tlib == "widgets":
                        problems.append(f"{where}: model/ may not include widgets/")
                    elif tlib == lib and tarea != me:
                        if ranks[tarea] > ranks[me]:
                            problems.append(f"{where}: {lib}/{tarea} is above {lib}/{me}")
                        elif ranks[tarea] == ranks[me]:
                            problems.append(f"{where}: {lib}/{tarea} and {lib}/{me} are of one layer")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} include(s) against the layer order")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
