var v0 = true;
var v1 = "s22";
var v2 = null;
var v3 = null;
var v4 = 88;
var v5 = [];
var v6 = {};
var v7 = "s28";
var v8 = {};
var v9 = 44;
var v10 = {};
var v11 = 52;
var o4 = { a: null, b: function () { return {}; } };
var o12 = { a: null, b: function () { return true; } };
v4 = [null, "s48"].map(function (x) { return x; });
var v0 = {};
v0 = [null, true].map(function (x) { return x; });
var o4 = { a: [], b: function () { return "s18"; } };
var o12 = { a: 1.5, b: function () { return []; } };
for (let i3 = 0; i3 < 14; i3++) { for (let i5 = 0; i5 < 14; i5++) { if (v0 == {}) { var v0 = true; } } }
v0 = [5.5, true].map(function (x) { return x; });
v4 = v4 + "s0";
v4 = v8 + {};
v0 = [7.5, 0.5].map(function (x) { return x; });
function f12(a, b) { var o16 = { a: null, b: function () { return {}; } }; return a; }
var v4 = "s12";
var o4 = { a: {}, b: function () { return []; } };
var o8 = { a: {}, b: function () { return 8; } };
for (let i3 = 0; i3 < 10; i3++) { for (let i3 = 0; i3 < 2; i3++) { try { v0.p4 = {}; } catch (e) { v4 = e; } } }
v0 = ["s6", true].map(function (x) { return x; });
var len = 7; for (let j = 0; j < 4; j++) { len -= 3; }
var arr = new Array(len < 0 ? len : 1);
function f0(a, b) { var k3 = 0; while (k3 < 25) { k3 += 1; if (v0 == "s22") { try { v0.p0 = 6.5; } catch (e) { v4 = e; } } } return a; }
v4 = [6.5, 28].map(function (x) { return x; });
v4 = v8 + [];
var v0 = "s16";
for (let i8 = 0; i8 < 10; i8++) { v8 = ["s32", "s34"].map(function (x) { return x; }); }
function f22(a, b) { v4 = [[], true].map(function (x) { return x; }); return a; }
function f22(a, b) { function f28(a, b) { try { v0.p2 = true; } catch (e) { v0 = e; } return a; } return a; }
for (let i1 = 0; i1 < 6; i1++) { var o8 = { a: 7.5, b: function () { return []; } }; }
try { v8.p3 = 0.5; } catch (e) { v4 = e; }
var k6 = 0; while (k6 < 51) { k6 += 3; var v4 = 36; }
for (let i0 = 0; i0 < 6; i0++) { function f6(a, b) { if (v4 == 52) { var v0 = null; } return a; } }
for (let i1 = 0; i1 < 15; i1++) { v0 = v8 + null; }
if (v0 == {}) { if (v0 == []) { if (v0 == 80) { v4 = [true, 8.5].map(function (x) { return x; }); } } }
var k5 = 0; while (k5 < 33) { k5 += 2; var v0 = null; }
var v0 = true;
try { v8.p4 = 64; } catch (e) { v4 = e; }
var k0 = 0; while (k0 < 39) { k0 += 3; v8 = v8 + []; }
function f16(a, b) { try { v4.p4 = "s38"; } catch (e) { v4 = e; } return a; }
var v0 = 88;
try { v4.p1 = 5.5; } catch (e) { v4 = e; }
if (v8 == {}) { var o12 = { a: null, b: function () { return 1.5; } }; }
var v4 = null;
function f28(a, b) { var o4 = { a: {}, b: function () { return []; } }; return a; }
var o16 = { a: 4.5, b: function () { return true; } };
for (let i6 = 0; i6 < 6; i6++) { v8 = v4 + {}; }
v8 = [null, true].map(function (x) { return x; });
v0 = [[], 40].map(function (x) { return x; });
v0 = v4 + "s48";
var o4 = { a: "s4", b: function () { return 8.5; } };
for (let i4 = 0; i4 < 2; i4++) { var k8 = 0; while (k8 < 51) { k8 += 2; try { v8.p1 = "s10"; } catch (e) { v8 = e; } } }
v4 = v0 + 0.5;
v4 = v4 + 2.5;
function f6(a, b) { function f24(a, b) { if (v0 == 76) { if (v4 == 64) { if (v8 == null) { if (v0 == 2.5) { try { v0.p2 = []; } catch (e) { v0 = e; } } } } } return a; } return a; }
var v0 = null;
for (let i1 = 0; i1 < 14; i1++) { function f4(a, b) { try { v8.p3 = {}; } catch (e) { v8 = e; } return a; } }
try { v0.p1 = {}; } catch (e) { v8 = e; }
var v0 = 4;
if (v4 == "s22") { var k3 = 0; while (k3 < 19) { k3 += 2; var v8 = []; } }
try { v0.p3 = 44; } catch (e) { v8 = e; }
v0 = v0 + "s22";
function f28(a, b) { var o8 = { a: 4.5, b: function () { return null; } }; return a; }
v0 = v4 + 64;
var v8 = 4.5;
v0 = v0 + true;
var o12 = { a: {}, b: function () { return 2.5; } };
function f22(a, b) { v4 = v8 + "s4"; return a; }
v4 = ["s40", "s34"].map(function (x) { return x; });
