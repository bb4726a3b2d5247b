// Median wall per case and value of passes ahead, from an ab.sh table. usage: node summarize.cjs TABLE
const lines=require("fs").readFileSync(process.argv[2],"utf8").trim().split("\n").map(l=>l.split("\t"));
const m={};let diff=0;
for(const [c,a,r,w,t,same] of lines){((m[c]??={})[a]??=[]).push(Number(w)); if(same!=="same") diff++;}
let t0=0,t1=0;
for(const c in m){const med=a=>{const xs=[...m[c][a]].sort((p,q)=>p-q);return xs[Math.floor(xs.length/2)]};const x0=med("0"),x1=med("1");t0+=x0;t1+=x1;
console.log(c.padEnd(22),x0.toFixed(2),x1.toFixed(2),(x1-x0).toFixed(2).padStart(6),"  runs 0:",m[c]["0"].map(v=>v.toFixed(2)).join(" "),"| 1:",m[c]["1"].map(v=>v.toFixed(2)).join(" "));}
console.log("total".padEnd(22),t0.toFixed(2),t1.toFixed(2),(t1-t0).toFixed(2),((t1-t0)/t0*100).toFixed(1)+"%", "results differing from -j 1:", diff);
