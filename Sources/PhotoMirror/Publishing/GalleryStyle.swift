/// The gallery's one stylesheet, inlined in every page. A grid that reflows from one column on
/// a phone to many on a desktop; a visible focus ring for keyboard users.
enum GalleryStyle {
    static let css = """
    :root{color-scheme:light dark;--fg:#1d1d1f;--muted:#5f6368;--bg:#f6f6f4;--card:#fff;--line:#dcdcd8;--bad:#a4161a;--accent:#0b57d0}\
    @media (prefers-color-scheme:dark){:root{--fg:#eee;--muted:#aaa;--bg:#161616;--card:#222;--line:#3a3a3a;--bad:#ff8a80;--accent:#8ab4f8}}\
    *{box-sizing:border-box}\
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:1rem;max-width:80rem;color:var(--fg);background:var(--bg)}\
    a{color:var(--accent)}a:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:2px}\
    header{margin-bottom:1rem}h1{font-size:1.6rem;margin:.25rem 0}h2{font-size:1.2rem;margin:0 0 .25rem}\
    .meta,.attribution,.crumbs{color:var(--muted);margin:.2rem 0}.attribution{font-style:italic}\
    .feeds{list-style:none;padding:0;margin:0;display:grid;gap:1rem}\
    .feed{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem}\
    .strip{list-style:none;padding:0;margin:.75rem 0 0;display:flex;flex-wrap:wrap;gap:.4rem}\
    .grid{list-style:none;padding:0;margin:0;display:grid;gap:.75rem;\
    grid-template-columns:repeat(auto-fill,minmax(min(100%,11rem),1fr))}\
    .item{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.6rem;min-width:0;\
    display:flex;flex-direction:column;gap:.3rem}\
    .item img,.strip img{display:block;max-width:100%;height:auto;border-radius:3px}\
    .missing{display:flex;align-items:center;justify-content:center;text-align:center;max-width:100%;\
    background:repeating-linear-gradient(45deg,transparent 0 6px,rgba(127,127,127,.15) 6px 12px);\
    border:1px dashed var(--line);border-radius:3px;color:var(--bad);font-size:11px;font-weight:600;overflow:hidden}\
    .title{font-weight:600;overflow-wrap:anywhere;margin:0}\
    .more{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem;margin:0;color:var(--muted);font-size:12px}\
    .more img{display:block;border-radius:2px}header .logo{float:right;border-radius:4px;margin-left:.5rem}\
    .details{color:var(--muted);font-size:13px;margin:0;overflow-wrap:anywhere}\
    .reason{color:var(--bad);font-size:13px;margin:0;overflow-wrap:anywhere}\
    .tags{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;padding:0;margin:0}\
    .tags li{font-size:12px;background:rgba(127,127,127,.15);border-radius:999px;padding:0 .5rem}\
    nav.pages{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0;align-items:center}\
    nav.pages a,nav.pages span{padding:.2rem .55rem;border:1px solid var(--line);border-radius:4px}\
    nav.pages [aria-current]{font-weight:700;background:var(--card)}\
    @media (max-width:30rem){body{padding:.6rem}.grid{grid-template-columns:repeat(2,minmax(0,1fr))}}
    """
}
