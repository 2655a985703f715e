/// The gallery's one stylesheet, inlined in every page. On a feed page the pictures dominate: a
/// dense grid whose smallest tile is `--tile` (the page's thumbnail width, so larger synced sizes
/// get larger tiles), titles small beneath; from one column of two on a phone to many on a
/// desktop. Images are drawn over a checkerboard so a transparent one is seen as such in either
/// theme. The viewer (`ItemViewer`) is an overlay shown while the URL's fragment names it.
enum GalleryStyle {
    static let css = """
    :root{color-scheme:light dark;--fg:#1d1d1f;--muted:#5f6368;--bg:#f6f6f4;--card:#fff;--line:#dcdcd8;--bad:#a4161a;--accent:#0b57d0;\
    --check:conic-gradient(#fff 25%,#cfcfcc 0 50%,#fff 0 75%,#cfcfcc 0) 0 0/16px 16px}\
    @media (prefers-color-scheme:dark){:root{--fg:#eee;--muted:#aaa;--bg:#161616;--card:#222;--line:#3a3a3a;--bad:#ff8a80;--accent:#8ab4f8;\
    --check:conic-gradient(#4a4a4a 25%,#2e2e2e 0 50%,#4a4a4a 0 75%,#2e2e2e 0) 0 0/16px 16px}}\
    *{box-sizing:border-box}\
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:1rem;max-width:100rem;color:var(--fg);background:var(--bg)}\
    a{color:var(--accent)}a:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:2px}\
    header{margin-bottom:1rem}h1{font-size:1.6rem;margin:.25rem 0;overflow-wrap:anywhere}h2{font-size:1.2rem;margin:0 0 .25rem}\
    .meta,.attribution,.crumbs{color:var(--muted);margin:.2rem 0;overflow-wrap:anywhere}.attribution{font-style:italic}\
    .feeds{list-style:none;padding:0;margin:0;display:grid;gap:1rem}\
    .feed{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;min-width:0}\
    .strip{list-style:none;padding:0;margin:.75rem 0 0;display:flex;flex-wrap:wrap;gap:.4rem}\
    .grid{list-style:none;padding:0;margin:0;display:grid;gap:.9rem .5rem;\
    grid-template-columns:repeat(auto-fill,minmax(min(100%,var(--tile,120px)),1fr))}\
    .item{min-width:0;display:flex;flex-direction:column;gap:.15rem}\
    .thumb{display:block;border-radius:4px}\
    .item>img,.thumb img{display:block;width:100%;height:auto;border-radius:4px}\
    .item>img,.thumb img,.strip img,.lb img,header .logo{background:var(--check)}\
    .strip img{display:block;max-width:100%;height:auto;border-radius:3px}\
    .thumb:hover img{filter:brightness(1.08)}\
    .missing{display:flex;align-items:center;justify-content:center;text-align:center;width:100%!important;\
    height:auto!important;aspect-ratio:1;background:repeating-linear-gradient(45deg,transparent 0 6px,rgba(127,127,127,.15) 6px 12px);\
    border:1px dashed var(--line);border-radius:4px;color:var(--bad);font-size:11px;font-weight:600;overflow:hidden}\
    .title{font-size:12px;color:var(--muted);margin:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\
    .more{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem;margin:0;color:var(--muted);font-size:11px}\
    .more img{display:block;border-radius:2px}header .logo{float:right;border-radius:4px;margin-left:.5rem}\
    .details{color:var(--muted);font-size:11px;margin:0;overflow-wrap:anywhere}\
    .reason{color:var(--bad);font-size:11px;margin:0;overflow-wrap:anywhere}\
    .tags{display:flex;flex-wrap:wrap;gap:.2rem;list-style:none;padding:0;margin:0}\
    .tags li{font-size:10px;background:rgba(127,127,127,.15);border-radius:999px;padding:0 .4rem}\
    nav.pages{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0;align-items:center}\
    nav.pages a,nav.pages span{padding:.2rem .55rem;border:1px solid var(--line);border-radius:4px}\
    nav.pages [aria-current]{font-weight:700;background:var(--card)}\
    .lb{display:none}\
    .lb:target{display:flex;position:fixed;inset:0;z-index:9;background:rgba(12,12,12,.94);align-items:center;justify-content:center;padding:.5rem}\
    .lb figure{margin:0;display:flex;flex-direction:column;align-items:center;gap:.5rem;max-width:100%}\
    .lb img{display:block;max-width:calc(100vw - 1rem);max-height:calc(100vh - 4.5rem);width:auto;height:auto;object-fit:contain}\
    .lb figcaption{color:#ddd;font-size:14px;text-align:center;overflow-wrap:anywhere;max-width:40rem}.lb figcaption a{color:#8ab4f8}\
    .lb .prev,.lb .next,.lb .close{position:absolute;color:#fff;text-decoration:none;font-size:2.4rem;line-height:1;\
    padding:.3rem .8rem .5rem;background:rgba(0,0,0,.45);border-radius:6px}\
    .lb .prev{left:.5rem;top:50%;transform:translateY(-50%)}.lb .next{right:.5rem;top:50%;transform:translateY(-50%)}\
    .lb .close{right:.5rem;top:.5rem;font-size:1.8rem}\
    @media (max-width:30rem){body{padding:.6rem}h1{font-size:1.3rem}}
    """
}
