"""The intensity each kernel's point sits at on a roofline chart.

point_intensity.py chart.svg: reads the x axis's decade ticks (their
positions and labels) and prints, per kernel, "NAME: I X" for its point
and "NAME: LEVEL I X" for each of its level points, X to 3 significant
digits (the chart rounds positions to 0.1 px).
"""
import html
import math
import re
import sys

SI = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}

svg = open(sys.argv[1]).read()
ticks = svg.split('<g class="ticks"')[1].split("</g>")[0]
decades = []
for x, label in re.findall(
        r'<text x="([0-9.]+)" y="[0-9.]+" text-anchor="middle">([^<]+)</text>',
        ticks):
    m = re.fullmatch(r"([0-9.e+-]+) ?([kMGT]?)", label)
    decades.append((float(x), float(m.group(1)) * SI[m.group(2)]))
(x0, v0), (x1, v1) = decades[0], decades[1]
per_decade = (x1 - x0) / math.log10(v1 / v0)


def intensity(cx):
    return "%.3g" % (v0 * 10 ** ((float(cx) - x0) / per_decade))


for name, body in re.findall(r'<g class="kernel" data-kernel="([^"]*)"[^>]*>(.*?)</g>',
                             svg, re.S):
    name = html.unescape(name)
    cx = re.search(r'class="kernel-point" cx="([0-9.]+)"', body).group(1)
    print("%s: I %s" % (name, intensity(cx)))
    for level, lcx in re.findall(
            r'class="level-point" data-level="([^"]+)"[^>]* cx="([0-9.]+)"', body):
        print("%s: %s I %s" % (name, level, intensity(lcx)))
