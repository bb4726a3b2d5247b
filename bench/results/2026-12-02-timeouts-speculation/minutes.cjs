const fs=require("fs");
for(const f of process.argv.slice(2)){
const L=fs.readFileSync(f,"utf8").trim().split("\n").map(JSON.parse);
const imp=L.filter(e=>e.type==="improved");const at=m=>imp.filter(e=>e.t<=m*60000).pop()?.size;
const ends=L.filter(e=>e.type==="test-end");const to=ends.filter(e=>e.outcome==="timeout");
const run=new Map();let last=0,busy=0;for(const e of L){busy+=run.size*(e.t-last);last=e.t;if(e.type==="test-start")run.set(e.id,1);if(e.type==="test-end")run.delete(e.id);}
const out=f.replace(".ev.jsonl",".out.js");const nws=fs.existsSync(out)?fs.readFileSync(out,"utf8").replace(/\s/g,"").length:"?";
console.log(f.split("/").pop().padEnd(40),[1,2,3,4,5].map(at).join(" / "),"nws",nws,"tests",ends.length,"timeouts",to.length,(to.reduce((s,e)=>s+e.ms,0)/1000).toFixed(0)+"s","occupancy",(busy/last/2*100).toFixed(0)+"%");}
