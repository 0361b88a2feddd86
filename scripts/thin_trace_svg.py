"""thin_trace_svg.py - shrink a `peerwave --trace` SVG for documentation: within each lane,
neighbouring tile rectangles closer than GAP_PX pixels (default 1) are merged into one (data-tiles and
data-busy-ns summed, so the lane totals still check), drawn with an opacity equal to the busy
share of the merged extent, so waits inside it stay visible as paler bars.  The lane attributes and the summary line
are kept as written by peerwave.
    python3 scripts/thin_trace_svg.py IN.svg OUT.svg [GAP_PX]
"""
import sys
import xml.etree.ElementTree as ET

GAP_PX = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", NS)
tree = ET.parse(sys.argv[1])
for lane in tree.getroot().findall(f"{{{NS}}}g"):
    rects = lane.findall(f"{{{NS}}}rect")
    ns_per_px = int(lane.get("data-span-ns")) / float(rects[0].get("width"))  # rects[0]: the lane's background
    tiles = [r for r in rects if r.get("class") == "tile"]
    keep = None
    for r in tiles:
        x, w = float(r.get("x")), float(r.get("width"))
        if keep is not None and x - (float(keep.get("x")) + float(keep.get("width"))) < GAP_PX:
            keep.set("width", f"{x + w - float(keep.get('x')):.2f}")
            for key in ("data-tiles", "data-busy-ns"):
                keep.set(key, str(int(keep.get(key)) + int(r.get(key))))
            title = keep.find(f"{{{NS}}}title")
            if title is not None:
                title.text = f"{keep.get('data-tiles')} tiles (merged for display)"
            lane.remove(r)
            # opacity = busy share of the merged extent: waits inside it stay visible as paler bars
            busy_share = int(keep.get("data-busy-ns")) / (float(keep.get("width")) * ns_per_px)
            keep.set("fill-opacity", f"{min(1.0, busy_share):.2f}")
        else:
            keep = r
tree.write(sys.argv[2], xml_declaration=True, encoding="UTF-8")
