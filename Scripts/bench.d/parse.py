"""Target 7 (issue 11): reading a 2000-item RSS feed whose items carry HTML content with images,
against the same feed in plain text. Both are read by `photomirror feed FILE` (fetch,
parse, image extraction, no cache); a one-item feed read the same way is the process's
start-up, which is subtracted from both before the ratio, so the ratio is the parsers'. The
text listing is printed, not --json: JSONEncoder's cost per image would be measured too."""
import os, statistics

from measure import Tool, round_robin

ITEMS = 2000

# A news item as blogs publish it: paragraphs, links, a lazy-loaded image with srcset and a
# tracking pixel; the plain twin keeps the same words without markup.
HTML = ("<p>The council met on Tuesday &amp; agreed the plan for item {n}. "
        "<a href=\"/news/{n}\">Read more</a> about the <em>new</em> park.</p>"
        "<figure><img src=\"/img/{n}-small.jpg\" srcset=\"/img/{n}-480.jpg 480w, /img/{n}-960.jpg 960w\" "
        "data-src=\"/img/{n}-lazy.jpg\" alt=\"the park\" width=\"480\" height=\"320\">"
        "<figcaption>Photo: a reader</figcaption></figure>"
        "<p>Second paragraph with more words about the plan, the budget and the timeline.</p>"
        "<img src=\"https://pixel.example/t.gif?id={n}\" width=\"1\" height=\"1\">")
PLAIN = ("The council met on Tuesday and agreed the plan for item {n}. Read more about the new park. "
         "Photo: a reader. Second paragraph with more words about the plan, the budget and the timeline.")


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _feed(path, count, body):
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" '
                  'xmlns:media="http://search.yahoo.com/mrss/"><channel><title>bench</title>'
                  '<link>https://news.example/</link>\n')
        for n in range(count):
            out.write(f"<item><title>Item {n}</title><link>https://news.example/{n}</link><guid>g{n}</guid>"
                      f"<pubDate>Tue, 01 Dec 2026 10:00:00 GMT</pubDate>"
                      f'<media:content url="https://cdn.example/{n}.jpg" medium="image" width="1024" height="768"/>'
                      f"<description>{_escape(body.format(n=n))}</description></item>\n")
        out.write("</channel></rss>\n")


def run(binary, work, rounds, warmup=1):
    folder = os.path.join(work, "parse")
    os.makedirs(folder, exist_ok=True)
    files = {"html": os.path.join(folder, "html.rss"), "plain": os.path.join(folder, "plain.rss"),
             "start-up": os.path.join(folder, "one.rss")}
    _feed(files["html"], ITEMS, HTML)
    _feed(files["plain"], ITEMS, PLAIN)
    _feed(files["start-up"], 1, PLAIN)
    names = {"html": f"photomirror feed, {ITEMS} items with HTML content",
             "plain": f"photomirror feed, {ITEMS} items of plain text",
             "start-up": "photomirror feed, 1 item (start-up)"}
    tools = [Tool(names[key], [binary, "feed", path]) for key, path in files.items()]
    stats = round_robin(tools, ITEMS, rounds, warmup, label="parse")
    base = stats[names["start-up"]].runs
    ratios = [max(h.cpu - b.cpu, 1e-4) / max(p.cpu - b.cpu, 1e-4)
              for h, p, b in zip(stats[names["html"]].runs, stats[names["plain"]].runs, base)]
    return {"stats": stats, "names": names, "ratio": statistics.median(ratios),
            "ms": {key: 1000 * statistics.median(r.cpu - b.cpu for r, b in zip(stats[names[key]].runs, base))
                   for key in ("html", "plain")},
            "bytes": {key: os.path.getsize(files[key]) for key in ("html", "plain")}}
