var v0 = null;
var v1 = null;
var v2 = null;
var v3 = [];
var v4 = "s22";
var v5 = true;
var v6 = 4;
var v7 = 4.5;
var v8 = {};
var v9 = true;
var v10 = true;
var v11 = 52;
try { v4.p4 = "s30"; } catch (e) { v8 = e; }
var o0 = { a: "s12", b: function () { return true; } };
v4 = [{}, 56].map(function (x) { return x; });
try { v0.p3 = true; } catch (e) { v8 = e; }
v4 = [3.5, null].map(function (x) { return x; });
var v4 = {};
function f12(a, b) { var o16 = { a: [], b: function () { return {}; } }; return a; }
try { v0.p0 = 8; } catch (e) { v4 = e; }
function f14(a, b) { v4 = v8 + 24; return a; }
v4 = [{}, null].map(function (x) { return x; });
v8 = [{}, []].map(function (x) { return x; });
v4 = [{}, null].map(function (x) { return x; });
var k0 = 0; while (k0 < 53) { k0 += 2; if (v4 == true) { if (v8 == 5.5) { try { v0.p0 = []; } catch (e) { v0 = e; } } } }
v8 = v8 + {};
var k4 = 0; while (k4 < 31) { k4 += 2; function f26(a, b) { if (v4 == 52) { try { v0.p2 = []; } catch (e) { v8 = e; } } return a; } }
var o0 = { a: [], b: function () { return []; } };
try { v4.p3 = "s22"; } catch (e) { v4 = e; }
v4 = v0 + "s14";
var k4 = 0; while (k4 < 15) { k4 += 3; var k0 = 0; while (k0 < 31) { k0 += 3; var v8 = 84; } }
var v8 = "s14";
for (let i7 = 0; i7 < 2; i7++) { function f10(a, b) { if (v0 == "s16") { try { v0.p4 = null; } catch (e) { v4 = e; } } return a; } }
function f12(a, b) { var o16 = { a: true, b: function () { return true; } }; return a; }
var v8 = 2.5;
function f8(a, b) { function f20(a, b) { if (v8 == "s36") { var v0 = null; } return a; } return a; }
for (let i0 = 0; i0 < 18; i0++) { v0 = [[], true].map(function (x) { return x; }); }
v0 = v4 + [];
var v4 = true;
v8 = v8 + {};
var v4 = null;
if (v0 == null) { v4 = [3.5, null].map(function (x) { return x; }); }
var len = 7; for (let j = 0; j < 4; j++) { len -= 3; }
var arr = new Array(len < 0 ? len : 1);
v4 = [0, 0].map(function (x) { return x; });
try { v8.p4 = "s26"; } catch (e) { v8 = e; }
var v4 = 7.5;
v8 = v4 + 5.5;
var k2 = 0; while (k2 < 17) { k2 += 3; var o8 = { a: 68, b: function () { return 3.5; } }; }
function f0(a, b) { var o16 = { a: 8.5, b: function () { return null; } }; return a; }
v4 = [[], {}].map(function (x) { return x; });
if (v8 == 60) { var v0 = 52; }
if (v0 == 32) { v4 = [true, "s0"].map(function (x) { return x; }); }
var v0 = null;
try { v8.p2 = {}; } catch (e) { v8 = e; }
v0 = v4 + 1.5;
function f18(a, b) { var k1 = 0; while (k1 < 17) { k1 += 2; var v4 = null; } return a; }
var o4 = { a: null, b: function () { return {}; } };
v0 = v8 + null;
function f28(a, b) { var v4 = 56; return a; }
for (let i4 = 0; i4 < 2; i4++) { var o12 = { a: [], b: function () { return "s2"; } }; }
var o4 = { a: true, b: function () { return 24; } };
v4 = [[], 96].map(function (x) { return x; });
try { v4.p4 = 0.5; } catch (e) { v4 = e; }
function f8(a, b) { for (let i8 = 0; i8 < 2; i8++) { var v8 = true; } return a; }
v4 = v8 + {};
if (v0 == {}) { if (v4 == true) { var v4 = true; } }
var o0 = { a: 28, b: function () { return 6.5; } };
var v8 = {};
v4 = [true, 8].map(function (x) { return x; });
try { v0.p2 = null; } catch (e) { v8 = e; }
function f26(a, b) { var v0 = "s2"; return a; }
v8 = [36, true].map(function (x) { return x; });
var v0 = true;
for (let i1 = 0; i1 < 10; i1++) { var o0 = { a: [], b: function () { return true; } }; }
v8 = [[], true].map(function (x) { return x; });
function f12(a, b) { if (v0 == true) { var v4 = {}; } return a; }
