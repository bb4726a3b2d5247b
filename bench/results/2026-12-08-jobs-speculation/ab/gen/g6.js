var v0 = null;
var v1 = 6.5;
var v2 = true;
var v3 = {};
var v4 = true;
var v5 = 3.5;
var v6 = "s30";
var v7 = 36;
var v8 = "s10";
var v9 = {};
var v10 = true;
var v11 = 88;
for (let i2 = 0; i2 < 6; i2++) { function f14(a, b) { if (v4 == {}) { try { v0.p1 = 52; } catch (e) { v0 = e; } } return a; } }
for (let i5 = 0; i5 < 10; i5++) { var v8 = {}; }
if (v8 == 1.5) { var v4 = null; }
for (let i6 = 0; i6 < 10; i6++) { var k3 = 0; while (k3 < 45) { k3 += 2; try { v0.p1 = true; } catch (e) { v8 = e; } } }
var o8 = { a: {}, b: function () { return {}; } };
if (v4 == {}) { var k0 = 0; while (k0 < 53) { k0 += 3; if (v8 == []) { if (v8 == 40) { if (v8 == 6.5) { var v4 = {}; } } } } }
if (v0 == {}) { var k7 = 0; while (k7 < 47) { k7 += 1; var v8 = null; } }
var v4 = {};
var k0 = 0; while (k0 < 53) { k0 += 1; v8 = v0 + {}; }
for (let i3 = 0; i3 < 2; i3++) { function f16(a, b) { try { v4.p1 = null; } catch (e) { v4 = e; } return a; } }
var o12 = { a: true, b: function () { return true; } };
for (let i1 = 0; i1 < 2; i1++) { var k5 = 0; while (k5 < 39) { k5 += 2; try { v4.p0 = 7.5; } catch (e) { v8 = e; } } }
var k6 = 0; while (k6 < 37) { k6 += 1; var v0 = 20; }
v0 = v0 + [];
v0 = [{}, 4.5].map(function (x) { return x; });
v8 = [{}, true].map(function (x) { return x; });
try { v0.p1 = {}; } catch (e) { v0 = e; }
var k8 = 0; while (k8 < 17) { k8 += 2; var k1 = 0; while (k1 < 41) { k1 += 3; if (v8 == true) { try { v4.p4 = "s8"; } catch (e) { v0 = e; } } } }
v8 = v4 + "s10";
function f4(a, b) { var o16 = { a: null, b: function () { return true; } }; return a; }
try { v4.p2 = null; } catch (e) { v0 = e; }
function f18(a, b) { v0 = [[], "s4"].map(function (x) { return x; }); return a; }
for (let i1 = 0; i1 < 10; i1++) { function f20(a, b) { var v0 = []; return a; } }
var k5 = 0; while (k5 < 43) { k5 += 2; var v0 = {}; }
if (v0 == null) { if (v8 == null) { if (v5 == null) { try { v8.p3 = 72; } catch (e) { v0 = e; } } } }
function f0(a, b) { function f6(a, b) { var v8 = 4; return a; } return a; }
var o8 = { a: [], b: function () { return 1.5; } };
var v8 = "s38";
if (v4 == 84) { if (v8 == {}) { if (v4 == 2.5) { try { v0.p3 = {}; } catch (e) { v4 = e; } } } }
var k1 = 0; while (k1 < 49) { k1 += 1; v4 = [{}, "s16"].map(function (x) { return x; }); }
v4 = v8 + {};
var v4 = 24;
var v8 = 12;
var v4 = true;
var k2 = 0; while (k2 < 35) { k2 += 3; v8 = [6.5, true].map(function (x) { return x; }); }
var k3 = 0; while (k3 < 21) { k3 += 1; v0 = v8 + {}; }
for (let i4 = 0; i4 < 18; i4++) { v0 = v4 + 0.5; }
var k6 = 0; while (k6 < 19) { k6 += 2; try { v0.p3 = {}; } catch (e) { v8 = e; } }
try { v0.p3 = null; } catch (e) { v0 = e; }
var o0 = { a: true, b: function () { return 8.5; } };
try { v0.p1 = 4.5; } catch (e) { v0 = e; }
for (let i1 = 0; i1 < 2; i1++) { var o16 = { a: 40, b: function () { return "s18"; } }; }
if (v4 == "s40") { if (v8 == true) { try { v4.p2 = []; } catch (e) { v8 = e; } } }
var v4 = 12;
var len = 7; for (let j = 0; j < 4; j++) { len -= 3; }
var arr = new Array(len < 0 ? len : 1);
var v4 = {};
v8 = v4 + true;
try { v0.p4 = 4.5; } catch (e) { v0 = e; }
var o12 = { a: null, b: function () { return "s18"; } };
var k5 = 0; while (k5 < 43) { k5 += 1; var o16 = { a: 5.5, b: function () { return null; } }; }
if (v0 == 2.5) { var k4 = 0; while (k4 < 45) { k4 += 3; var v8 = 12; } }
v4 = ["s8", "s8"].map(function (x) { return x; });
if (v8 == null) { v0 = v0 + []; }
v0 = [null, []].map(function (x) { return x; });
if (v4 == {}) { v8 = [null, 20].map(function (x) { return x; }); }
if (v0 == {}) { v8 = [4.5, {}].map(function (x) { return x; }); }
v4 = [[], "s28"].map(function (x) { return x; });
v4 = v4 + {};
try { v0.p0 = 68; } catch (e) { v4 = e; }
var k5 = 0; while (k5 < 19) { k5 += 2; if (v0 == 1.5) { if (v0 == "s16") { if (v0 == "s40") { if (v0 == []) { try { v0.p2 = null; } catch (e) { v0 = e; } } } } } }
