"""The report's stylesheet (inlined in the page)."""

from __future__ import annotations

__all__ = ["CSS"]

CSS = """
html{-webkit-text-size-adjust:100%}
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;padding:0 1.5rem;
color:#1d2330;max-width:1200px;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin:0 0 .25rem} h2{font-size:1.2rem;margin:2rem 0 .5rem;padding-top:.5rem;
border-top:2px solid #e4e7ec} h3{font-size:1rem;margin:1.25rem 0 .35rem} h4{font-size:.9rem;margin:.6rem 0 .2rem}
a{color:#1849a9} .muted{color:#667085} .ok{color:#067647}.miss{color:#b42318}.warn{color:#b54708}
.scroll{overflow-x:auto;max-width:100%;margin:.25rem 0} table{border-collapse:collapse;width:100%}
.scroll.wide table{min-width:720px} th,td{padding:.35rem .6rem;text-align:left;border-bottom:1px solid #e4e7ec;
vertical-align:top;overflow-wrap:normal} th{background:#f5f7fa;font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td{min-width:4rem} td:first-child{white-space:nowrap} #run td{overflow-wrap:anywhere}
#run td:nth-child(2){overflow-wrap:normal;white-space:nowrap}
#run td:nth-child(4){min-width:13rem} #run td:nth-child(5){min-width:13rem} #run td:nth-child(3){min-width:6rem}
.cards{display:flex;flex-wrap:wrap;gap:1rem}
.card{border:1px solid #e4e7ec;border-radius:8px;padding:.75rem 1rem;min-width:260px}
.card .big{font-size:1.8rem;font-weight:650} details summary{cursor:pointer}
.ev{margin:.25rem 0 .75rem} .ev li{margin:.15rem 0} code{background:#f2f4f7;padding:0 .25rem;border-radius:3px}
.cause{border-left:4px solid #f04438;padding:.1rem 0 .1rem .75rem;margin:.75rem 0}
.cause h3{margin:.2rem 0} .unscorable li{margin:.2rem 0}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.5rem 0}
.facts dt{color:#667085} .facts dd{margin:0} .changed{background:#fef0c7}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(340px,100%),1fr));gap:0 1.5rem}
.samples .head,.samples summary{display:grid;gap:.5rem;padding:.35rem .6rem;border-bottom:1px solid #e4e7ec}
.samples .head{background:#f5f7fa;font-weight:600} .samples summary{list-style:none}
.samples summary::-webkit-details-marker{display:none} .samples .sid::before{content:"▸ ";color:#667085}
.samples details[open] .sid::before{content:"▾ "} .samples .num{text-align:right;font-variant-numeric:tabular-nums}
.samples summary>.num::before{display:none;color:#667085;margin-right:.3rem} .delta{font-size:.85em;margin-left:.3rem}
.body{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:0 1.5rem;padding:.25rem .6rem .9rem;
border-bottom:1px solid #e4e7ec;background:#fcfcfd}
.inputs .text{white-space:pre-wrap;margin:.1rem 0 .4rem} .passage{border:1px solid #e4e7ec;border-radius:6px;
padding:.3rem .6rem;margin:.35rem 0;background:#fff} .passage:target{outline:2px solid #3e7bfa}
.passage .meta{font-size:.85em} .pn{display:inline-block;min-width:1.5rem;text-align:center;font-weight:650;
background:#eef4ff;border-radius:4px;margin-right:.3rem}
blockquote.q{margin:.3rem 0 .3rem .5rem;padding:.2rem .6rem;border-left:3px solid #d0d5dd;color:#344054}
blockquote.q.unverified{border-color:#f79009} mark{background:#fef0c7;padding:0 .1rem}
sup.cl{color:#b54708;font-weight:650;margin-left:.1rem}
details.base{border-top:1px dashed #d0d5dd;margin-top:.5rem;padding-top:.3rem} details.base summary{color:#667085}
table.deltas td.v{min-width:12rem}
.filter{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;margin:.5rem 0;padding:.5rem .6rem;
background:#f5f7fa;border-radius:6px} .filter input[type=number]{width:5rem} .filter select{max-width:14rem}
details.sample[hidden]{display:none}
@media (max-width:600px){
table.deltas thead{display:none} table.deltas,table.deltas tbody{display:block}
table.deltas tr{display:flex;flex-direction:column;border:1px solid #e4e7ec;border-radius:8px;
padding:.5rem .75rem;margin:.5rem 0}
table.deltas td{display:flex;gap:.75rem;border:0;padding:.1rem 0;min-width:0;white-space:normal}
table.deltas td::before{content:attr(data-label);color:#667085;flex:0 0 6.5rem;overflow-wrap:anywhere}
table.deltas td.m{font-weight:650;order:-9} table.deltas td.m::before{content:none}
table.deltas td.d{order:-8;font-size:1.15em;font-weight:650} table.deltas td.ci{order:-7}
table.deltas td.p{order:-6} table.deltas td.v{order:-5;min-width:0} table.deltas td.num{text-align:left}
.sides th,.sides td{padding:.3rem .35rem;min-width:0}
table.cards thead{display:none} table.cards,table.cards tbody{display:block}
table.cards tr{display:flex;flex-direction:column;border:1px solid #e4e7ec;border-radius:8px;
padding:.5rem .75rem;margin:.5rem 0}
table.cards td{display:flex;gap:.75rem;border:0;padding:.1rem 0;min-width:0;white-space:normal;text-align:left}
table.cards td::before{content:attr(data-label);color:#667085;flex:0 0 6.5rem;overflow-wrap:anywhere}
table.cards td.lead{font-weight:650;order:-9} table.cards td.lead::before{content:none}
table.cards td.key{order:-8;font-size:1.1em;font-weight:650}
}
@media (max-width:700px){
body{margin:1rem auto;padding:0 .75rem;font-size:15px} .card{min-width:0;flex:1 1 100%}
.body{grid-template-columns:minmax(0,1fr)} .samples .head{display:none}
.samples summary{display:flex!important;flex-wrap:wrap;gap:.2rem 1rem} .samples summary .sid{flex:1 1 100%}
.samples summary .num{text-align:left} .samples summary>.num::before{display:inline}
}
"""
