var v0 = {};
var v1 = 7.5;
var v2 = [];
var v3 = 88;
var v4 = 6.5;
var v5 = {};
var v6 = "s10";
var v7 = 24;
var v8 = 3.5;
var v9 = 7.5;
var v10 = "s42";
var v11 = [];
var o8 = { a: {}, b: function () { return 16; } };
for (let i7 = 0; i7 < 6; i7++) { var k0 = 0; while (k0 < 27) { k0 += 3; try { v4.p2 = 2.5; } catch (e) { v8 = e; } } }
var o16 = { a: true, b: function () { return true; } };
v4 = [76, "s42"].map(function (x) { return x; });
var k0 = 0; while (k0 < 15) { k0 += 1; var v8 = {}; }
v4 = ["s2", 3.5].map(function (x) { return x; });
var v8 = [];
if (v8 == 2.5) { for (let i0 = 0; i0 < 14; i0++) { if (v8 == []) { try { v8.p1 = {}; } catch (e) { v4 = e; } } } }
for (let i4 = 0; i4 < 6; i4++) { v8 = v0 + true; }
v8 = v4 + {};
try { v4.p2 = 2.5; } catch (e) { v8 = e; }
for (let i5 = 0; i5 < 2; i5++) { for (let i5 = 0; i5 < 2; i5++) { if (v0 == null) { try { v0.p1 = null; } catch (e) { v4 = e; } } } }
function f10(a, b) { v4 = v4 + {}; return a; }
v4 = v8 + 64;
v0 = [null, {}].map(function (x) { return x; });
v8 = [{}, 2.5].map(function (x) { return x; });
function f14(a, b) { try { v0.p3 = 3.5; } catch (e) { v8 = e; } return a; }
for (let i8 = 0; i8 < 14; i8++) { var v4 = null; }
var v4 = [];
var o4 = { a: [], b: function () { return []; } };
v4 = [{}, 56].map(function (x) { return x; });
var k4 = 0; while (k4 < 15) { k4 += 1; var k0 = 0; while (k0 < 13) { k0 += 1; try { v4.p2 = true; } catch (e) { v4 = e; } } }
for (let i8 = 0; i8 < 18; i8++) { var v0 = "s20"; }
v0 = [[], "s18"].map(function (x) { return x; });
var o4 = { a: {}, b: function () { return {}; } };
v4 = v4 + [];
function f22(a, b) { function f28(a, b) { var v4 = []; return a; } return a; }
var o12 = { a: {}, b: function () { return {}; } };
if (v4 == "s26") { v4 = v4 + null; }
var k7 = 0; while (k7 < 9) { k7 += 2; var v8 = true; }
var k5 = 0; while (k5 < 23) { k5 += 2; v9 = [{}, {}].map(function (x) { return x; }); }
var v4 = 5.5;
for (let i6 = 0; i6 < 18; i6++) { var v4 = null; }
var v8 = {};
for (let i8 = 0; i8 < 10; i8++) { var o8 = { a: true, b: function () { return null; } }; }
if (v8 == null) { v4 = [true, true].map(function (x) { return x; }); }
try { v8.p2 = null; } catch (e) { v4 = e; }
var k5 = 0; while (k5 < 15) { k5 += 1; for (let i0 = 0; i0 < 6; i0++) { if (v0 == 64) { try { v4.p1 = 5.5; } catch (e) { v4 = e; } } } }
var len = 7; for (let j = 0; j < 4; j++) { len -= 3; }
var arr = new Array(len < 0 ? len : 1);
var o0 = { a: 1.5, b: function () { return true; } };
if (v4 == []) { if (v8 == 24) { var v8 = 36; } }
v0 = v0 + 0.5;
function f12(a, b) { v8 = v4 + null; return a; }
var v4 = 1.5;
v4 = [true, {}].map(function (x) { return x; });
v8 = v4 + true;
