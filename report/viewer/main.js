// The report viewer: decodes the data rigscope embedded in the page and shows the animated
// tension map (three.js), the worst-vertex table and T over time. Nothing is fetched.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

const $ = (id) => document.getElementById(id);
// A page of several clips holds {clips: [{name, data}], initial}: the clip shown is the one
// report.html#clip=NAME names, else `initial` (a check's worst clip). The menu reloads the page
// on another clip, so every view below is built from one clip's data as on a one-clip page.
const page = JSON.parse(document.getElementById('rigscope-data').textContent);
const clipAsked = () => {
  const m = /(?:^#|&)clip=([^&]*)/.exec(location.hash);
  return m ? page.clips.findIndex((c) => c.name === decodeURIComponent(m[1])) : -1;
};
const clipIndex = page.clips ? (clipAsked() >= 0 ? clipAsked() : page.initial || 0) : 0;
const data = page.clips ? page.clips[clipIndex].data : page;
if (page.clips) {
  const menu = $('clip');
  page.clips.forEach((c, i) => {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = c.name + (c.data.check ? (c.data.check.failed ? ' (FAIL)' : ' (PASS)') : '');
    menu.append(o);
  });
  menu.value = String(clipIndex);
  menu.addEventListener('change', () => { location.hash = 'clip=' + encodeURIComponent(page.clips[Number(menu.value)].name); });
  // #clip=NAME typed, or set by the menu: the page starts again on that clip.
  window.addEventListener('hashchange', () => { const k = clipAsked(); if (k >= 0 && k !== clipIndex) location.reload(); });
  $('clips').hidden = false;
}

function bytesOf(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; ++i) out[i] = s.charCodeAt(i);
  return out;
}
// The page stores little-endian values; DataView reads them so on any machine.
function u16(b64) {
  const b = bytesOf(b64), v = new DataView(b.buffer), out = new Uint16Array(b.length / 2);
  for (let i = 0; i < out.length; ++i) out[i] = v.getUint16(2 * i, true);
  return out;
}
function u32(b64) {
  const b = bytesOf(b64), v = new DataView(b.buffer), out = new Uint32Array(b.length / 4);
  for (let i = 0; i < out.length; ++i) out[i] = v.getUint32(4 * i, true);
  return out;
}

// --- the node group's maps (rigscope's stretch_of / compress_of) --------------------------
const P = data.params, R = data.range;
// What T measures (--measure). principal has two T per vertex, T_c = 1 / lambda_min for the
// compress map and T_s = 1 / lambda_max for the stretch map; the page then shows lambda.
const MEASURE = data.measure || { kind: 'edge', smooth: 0, smooth_weights: 'uniform' };
const principal = MEASURE.kind === 'principal';
function shape(ramp) {
  ramp = Math.min(Math.max(ramp, 0), 1);
  const v = P.falloff === 1 ? ramp : P.falloff > 0 ? Math.pow(ramp, 1 / P.falloff) : (ramp > 0 ? 1 : 0);
  return P.weight_limit * v;
}
const stretchOf = (t) => { const d = 1 - R.t_s; return shape(d > 1e-12 ? (1 - t) / d : (t < 1 ? 1 : 0)); };
const compressOf = (t) => { const d = R.t_c - 1; return shape(d > 1e-12 ? (t - 1) / d : (t > 1 ? 1 : 0)); };

// --- decoding -----------------------------------------------------------------------------
const enc = data.t_encoding;
const shown = data.shown;
function f32(b64) {
  const b = bytesOf(b64), v = new DataView(b.buffer), out = new Float32Array(b.length / 4);
  for (let i = 0; i < out.length; ++i) out[i] = v.getFloat32(4 * i, true);
  return out;
}
const meshes = data.meshes.map((m) => {
  const n = m.vertices;
  const dequant = (q) => {
    const f = new Float32Array(q.length);
    for (let i = 0; i < q.length; ++i) f[i] = m.origin[i % 3] + q[i] * m.step[i % 3];
    return f;
  };
  const decodeT = (b64) => {
    const tq = enc.bits === 8 ? bytesOf(b64) : u16(b64);
    const t = new Float32Array(tq.length);
    for (let i = 0; i < tq.length; ++i) t[i] = Math.exp(enc.log_lo + tq[i] * enc.log_step);
    return t;
  };
  const t = decodeT(m.t);
  // One-sided measures: the stretch side reads the same T.
  const out = { name: m.name, n, motion: m.motion, t, ts: m.t_stretch !== undefined ? decodeT(m.t_stretch) : t };
  if (m.triangles !== undefined) out.index = m.index_bits === 16 ? u16(m.triangles) : u32(m.triangles);
  // A mesh of polygons on a page with marks: each face's first triangle (a face is its fan).
  if (m.face_first_triangle !== undefined) out.faceFirst = u32(m.face_first_triangle);
  else out.sameAs = m.triangles_of;
  if (m.motion === 'skinned') {
    out.base = dequant(u16(m.base));
    out.counts = bytesOf(m.influence_count);
    out.joints = u16(m.joints);
    out.weights = f32(m.weights);
    out.jointCount = m.joint_count;
    out.restJoints = f32(m.rest_joints);
    out.frameJoints = f32(m.frame_joints);
  } else {
    out.rest = dequant(u16(m.rest));
    if (m.motion === 'baked') out.frames = dequant(u16(m.positions));
  }
  return out;
});
for (const m of meshes) if (m.sameAs !== undefined) m.index = meshes[m.sameAs].index;

// Linear blend skinning as rigscope does it: sum of weight x (3x4 joint matrix) x position; a
// vertex without influences keeps its position.
function skin(m, mats, off, out) {
  let inf = 0;
  for (let v = 0; v < m.n; ++v) {
    const px = m.base[3 * v], py = m.base[3 * v + 1], pz = m.base[3 * v + 2], c = m.counts[v];
    if (c === 0) { out[3 * v] = px; out[3 * v + 1] = py; out[3 * v + 2] = pz; continue; }
    let x = 0, y = 0, z = 0;
    for (let i = 0; i < c; ++i, ++inf) {
      const w = m.weights[inf], a = off + 12 * m.joints[inf];
      x += w * (mats[a] * px + mats[a + 1] * py + mats[a + 2] * pz + mats[a + 3]);
      y += w * (mats[a + 4] * px + mats[a + 5] * py + mats[a + 6] * pz + mats[a + 7]);
      z += w * (mats[a + 8] * px + mats[a + 9] * py + mats[a + 10] * pz + mats[a + 11]);
    }
    out[3 * v] = x; out[3 * v + 1] = y; out[3 * v + 2] = z;
  }
}
// Positions of mesh m at shown frame k (or at rest) into out.
function positionsOf(m, k, atRest, out) {
  if (m.motion === 'skinned') skin(m, atRest ? m.restJoints : m.frameJoints, atRest ? 0 : k * m.jointCount * 12, out);
  else if (m.motion === 'static' || atRest) out.set(m.rest);
  else out.set(m.frames.subarray(k * m.n * 3, (k + 1) * m.n * 3));
  turnUpright(out);
}
// A file whose up axis is not +Y comes with rigscope's turn onto +Y (data.up_axis_turn, the
// rotation its glTF root node carries): every decoded position is turned, so the page shows the
// file upright and everything after this (bounds, normals, picking) works in Y-up.
function turnUpright(p) {
  if (!data.up_axis_turn) return;
  const [x, y, z, w] = data.up_axis_turn;
  const r = [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)];
  for (let i = 0; i + 2 < p.length; i += 3) {
    const a = p[i], b = p[i + 1], c = p[i + 2];
    p[i] = r[0] * a + r[1] * b + r[2] * c;
    p[i + 1] = r[3] * a + r[4] * b + r[5] * c;
    p[i + 2] = r[6] * a + r[7] * b + r[8] * c;
  }
}
const sideOf = (m, arr, k) => (m.motion === 'static' ? arr.subarray(0, m.n) : arr.subarray(k * m.n, (k + 1) * m.n));
const tOf = (m, k) => sideOf(m, m.t, k);     // compress side (the only T but for principal)
const tsOf = (m, k) => sideOf(m, m.ts, k);   // stretch side
// The heat map's T: the side farther from 1.
const farther = (tc, ts) => (Math.abs(Math.log(tc)) >= Math.abs(Math.log(ts)) ? tc : ts);

let maxLog = 1e-6;
for (const m of meshes) for (const arr of [m.t, m.ts]) for (const t of arr) maxLog = Math.max(maxLog, Math.abs(Math.log(t)));
// Values as the page shows them: T, or for principal lambda = 1 / T.
const shownValue = (t) => (principal ? 1 / t : t);
const Q = principal ? 'λ' : 'T';
const measureText = {
  edge: 'edge: T = mean rest edge length / mean deformed edge length',
  area: 'area: T = rest one-ring area / deformed one-ring area',
  principal: 'principal stretches λ_max ≥ λ_min (shown as λ); compress map from T = 1/λ_min, stretch map from T = 1/λ_max, heat map from the side farther from 1',
}[MEASURE.kind] || MEASURE.kind;

// --- check's marks (issue 59) ------------------------------------------------------------------
// data.intersections: per frame with crossing pairs, the faces of those pairs per mesh (file
// face ids, as `rigscope intersect` names them); data.volume: per measured volume (a closed
// mesh's, region "*", or a joint region's) its ratio to the bind measure at every frame and a
// region's faces. The page colours crossing faces red and a region losing more than the limit
// orange, each with its toggle.
const MARK_FACES = 0xff0000, MARK_REGIONS = 0xff9900;
const crossingAt = new Map();  // frame index -> its entry of data.intersections.frames
if (data.intersections) for (const f of data.intersections.frames) crossingAt.set(f.frame, f);
// The frame with the most crossing pairs (the first of equals).
function worstIntersectionFrame() {
  const p = data.intersections.pairs;
  let w = 0;
  for (let i = 1; i < p.length; ++i) if (p[i] > p[w]) w = i;
  return w;
}
// The largest loss (1 - ratio) of any measured volume, where and when (the first of equals).
function worstVolume() {
  let best = { region: null, frame: 0, ratio: 1, loss: -Infinity };
  for (const r of data.volume.regions)
    r.ratios.forEach((q, f) => { if (q !== null && 1 - q > best.loss) best = { region: r, frame: f, ratio: q, loss: 1 - q }; });
  return best;
}
// Regions of mesh index mi past the volume limit at frame index fi.
const regionsPast = (fi) => (data.volume ? data.volume.regions.filter((r) => r.ratios[fi] !== null && 1 - r.ratios[fi] > data.volume.limit) : []);
// File vertex ids of the triangles of faces `faces` of mesh m (a polygon: its fan's triangles).
function faceCorners(m, faces) {
  const out = [];
  for (const f of faces) {
    const b = m.faceFirst ? m.faceFirst[f] : f, e = m.faceFirst ? m.faceFirst[f + 1] : f + 1;
    for (let t = b; t < e; ++t) out.push(m.index[3 * t], m.index[3 * t + 1], m.index[3 * t + 2]);
  }
  return out;
}

// --- header ---------------------------------------------------------------------------------
const fmt = (x, d = 4) => Number(x).toPrecision(d).replace(/\.?0+$/, '');
const frameName = (f) => (f.bind ? 'bind' : String(f.number));
const allFrames = data.frames;
$('title').textContent = `rigscope report: ${data.input}`;
document.title = `rigscope report: ${data.input}`;
const firstFrame = allFrames[0], lastFrame = allFrames[allFrames.length - 1];
$('meta').textContent = `rigscope ${data.rigscope} · input ${data.input}` +
  (data.animation ? ` · animation ${data.animation}` : '') + ` · clip ${data.clip || '(none)'}` +
  ` · ${allFrames.length} frames (${frameName(firstFrame)}..${frameName(lastFrame)}) at ${fmt(data.fps)} fps` +
  ` · reference ${data.reference} · weld ${data.weld ? 'on' : 'off'} · meshes ${meshes.map((m) => `${m.name} (${m.n} vertices)`).join(', ')}`;
$('measure').textContent = `Measure: ${measureText}` +
  (MEASURE.smooth > 0 ? ` · smoothed: ${MEASURE.smooth} iterations of ${MEASURE.smooth_weights} one-ring averaging` : '');
$('params').textContent = `falloff ${P.falloff} · stretch area ${P.stretch_area} · compress area ${P.compress_area}` +
  ` · weight limit ${P.weight_limit} · smooth k ${P.smooth_k} · full stretch at T ≤ ${fmt(R.t_s)}, full compress at T ≥ ${fmt(R.t_c)}` +
  (R.auto ? ` (auto range, percentile ${R.percentile})` : '') +
  ` · T stored as ${enc.bits}-bit steps of log T (relative error ≤ ${fmt(enc.relative_error * 100, 2)}%), positions as 16-bit steps of each mesh's box`;
if (data.check) {
  const c = data.check, parts = [];
  if (c.max_stretch !== undefined)
    parts.push(principal ? `stretch limit λ_max > ${fmt(1 / c.max_stretch)}: ${c.stretch_count} vertices past it`
                         : `stretch limit T < ${c.max_stretch}: ${c.stretch_count} vertices past it`);
  if (c.max_compress !== undefined)
    parts.push(principal ? `compress limit λ_min < ${fmt(1 / c.max_compress)}: ${c.compress_count} vertices past it`
                         : `compress limit T > ${c.max_compress}: ${c.compress_count} vertices past it`);
  // check's other verdicts (--max-intersections, --max-volume-loss): said beside T's, and a
  // page that judged no T limit states only theirs.
  let failed = c.failed;
  if (data.intersections || data.volume) {
    const tJudged = c.max_stretch !== undefined || c.max_compress !== undefined;
    if (!tJudged) { parts.length = 0; failed = false; }
    if (data.intersections) {
      const x = data.intersections, w = worstIntersectionFrame();
      failed = failed || x.failed;
      parts.push(`intersections: at most ${x.limit} face pairs a frame; ${x.pairs[w] || 0} at frame ${frameName(allFrames[w])}` +
        (x.failed ? ' (past it)' : ''));
    }
    if (data.volume) {
      const vol = data.volume, w = worstVolume();
      failed = failed || vol.failed;
      parts.push(`volume: at most ${fmt(vol.limit * 100)}% lost per region` +
        (w.region ? `; ${w.region.region} (${meshes[w.region.mesh].name}) keeps ${fmt(w.ratio)} at frame ${frameName(allFrames[w.frame])}` : '') +
        (vol.failed ? ' (past it)' : ''));
    }
  }
  $('check').innerHTML = '';
  const v = document.createElement('span');
  v.className = 'verdict ' + (failed ? 'fail' : 'pass');
  v.textContent = failed ? 'FAIL' : 'PASS';
  $('check').append(v, ' ' + parts.join(' · '));
}
if (data.subsample) $('notes').textContent = `Subsampled: ${data.subsample}. The plot has every frame.`;

// --- 3D view -------------------------------------------------------------------------------
const canvas = $('canvas');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(canvas.width, canvas.height, false);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x3a3b40);
scene.add(new THREE.AmbientLight(0xffffff, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.4);
scene.add(sun);

// The camera frames the rest pose and the first shown frame.
const box = new THREE.Box3();
for (const m of meshes) {
  const p = new Float32Array(m.n * 3);
  for (const atRest of [true, false]) {
    positionsOf(m, 0, atRest, p);
    for (let i = 0; i + 2 < p.length; i += 3) box.expandByPoint(new THREE.Vector3(p[i], p[i + 1], p[i + 2]));
  }
}
const centre = box.getCenter(new THREE.Vector3());
const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-6);
const camera = new THREE.PerspectiveCamera(40, canvas.width / canvas.height, radius / 100, radius * 100);
camera.position.copy(centre).add(new THREE.Vector3(0.55, 0.35, 1).normalize().multiplyScalar(radius * 2.6));
camera.lookAt(centre);
camera.add(sun);
sun.position.set(0.3, 0.6, 0.2);
scene.add(camera);
const controls = new OrbitControls(camera, canvas);
controls.target.copy(centre);
controls.update();

for (const m of meshes) {
  const g = new THREE.BufferGeometry();
  m.pos = new THREE.BufferAttribute(new Float32Array(m.n * 3), 3);
  m.col = new THREE.BufferAttribute(new Float32Array(m.n * 3), 3);
  g.setAttribute('position', m.pos);
  g.setAttribute('color', m.col);
  g.setIndex(new THREE.BufferAttribute(m.index, 1));
  m.geometry = g;
  const mat = new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide });
  m.object = new THREE.Mesh(g, mat);
  scene.add(m.object);
}
// The marks: per mesh, the faces drawn again in a flat colour over the shaded mesh (its same
// positions), crossing faces above regions.
const hasMarks = !!(data.intersections || data.volume);
function overlay(m, colour, lift) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', m.pos);
  g.setIndex(new THREE.BufferAttribute(new Uint32Array(0), 1));
  const o = new THREE.Mesh(g, new THREE.MeshBasicMaterial({
    color: colour, side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: -lift, polygonOffsetUnits: -lift,
  }));
  o.frustumCulled = false;
  o.renderOrder = lift;
  scene.add(o);
  return o;
}
if (hasMarks)
  for (const m of meshes) {
    if (data.volume) m.regionMarks = overlay(m, MARK_REGIONS, 1);
    if (data.intersections) m.faceMarks = overlay(m, MARK_FACES, 2);
  }
const marker = new THREE.Mesh(new THREE.SphereGeometry(radius * 0.02, 16, 12),
  new THREE.MeshBasicMaterial({ color: 0x33ddff, depthTest: false }));
marker.renderOrder = 1;
marker.visible = false;
scene.add(marker);

// Diverging map of log T in sRGB: blue (stretch) - white (T = 1) - red (compress).
const RED = [0.70, 0.04, 0.04], BLUE = [0.05, 0.25, 0.75];
function heat(t, out) {
  const x = Math.max(-1, Math.min(1, Math.log(t) / maxLog)), end = x >= 0 ? RED : BLUE, a = Math.abs(x);
  for (let k = 0; k < 3; ++k) out[k] = 1 + (end[k] - 1) * a;
}
const toSRGB = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * Math.pow(c, 1 / 2.4) - 0.055);
const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4));

const state = { index: 0, playing: false, rest: false, mode: 'maps', marked: null, selected: [], markFaces: true, markRegions: true };
// The marks of shown frame k into the overlays and the marks' line (not at rest: the rest mesh
// crosses nothing the frame does).
function applyMarks(k) {
  if (!hasMarks) return;
  const fi = shown[k], crossing = crossingAt.get(fi), past = regionsPast(fi);
  meshes.forEach((m, i) => {
    if (m.faceMarks) {
      const faces = !state.rest && state.markFaces && crossing ? crossing.faces[i] : [];
      m.faceMarks.geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(faceCorners(m, faces)), 1));
    }
    if (m.regionMarks) {
      const faces = [];
      if (!state.rest && state.markRegions) for (const r of past) if (r.mesh === i && r.faces) faces.push(...r.faces);
      m.regionMarks.geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(faceCorners(m, faces)), 1));
    }
  });
  const parts = [];
  if (data.intersections) parts.push(`${data.intersections.pairs[fi]} face pairs cross (limit ${data.intersections.limit})`);
  if (data.volume)
    parts.push(past.length ? 'past the volume limit: ' + past.map((r) => `${r.region === '*' ? 'whole ' + meshes[r.mesh].name : r.region} ${fmt(r.ratios[fi])}`).join(', ')
                           : `no volume past the limit (${fmt(data.volume.limit * 100)}% loss)`);
  $('marks-status').textContent = `frame ${frameName(allFrames[fi])}: ` + parts.join(' · ');
}
const tmp = [0, 0, 0];
function applyFrame() {
  const k = state.index;
  for (const m of meshes) {
    positionsOf(m, k, state.rest, m.pos.array);
    m.pos.needsUpdate = true;
    const t = tOf(m, k), ts = tsOf(m, k), c = m.col.array;
    for (let v = 0; v < m.n; ++v) {
      // Vertex colours are linear (as the glTF's COLOR_0); the heat map is defined in sRGB.
      if (state.mode === 'heat') { heat(farther(t[v], ts[v]), tmp); for (let k = 0; k < 3; ++k) tmp[k] = toLinear(tmp[k]); }
      else {
        // The glTF's COLOR_0 (R = compress, G = stretch) over a grey base so the shape reads.
        tmp[0] = 0.18 + 0.82 * compressOf(t[v]); tmp[1] = 0.18 + 0.82 * stretchOf(ts[v]); tmp[2] = 0.18;
      }
      c[3 * v] = tmp[0]; c[3 * v + 1] = tmp[1]; c[3 * v + 2] = tmp[2];
    }
    m.col.needsUpdate = true;
    m.geometry.computeVertexNormals();
    m.geometry.computeBoundingSphere();
  }
  if (state.marked) {
    const m = meshes[state.marked.mesh], v = state.marked.vertex;
    marker.position.set(m.pos.array[3 * v], m.pos.array[3 * v + 1], m.pos.array[3 * v + 2]);
  }
  marker.visible = !!state.marked;
  applyMarks(k);
  const f = allFrames[shown[k]];
  $('scrub').value = String(k);
  $('frame-label').textContent = `frame ${frameName(f)} · t = ${fmt(f.time, 4)} s · ${k + 1}/${shown.length}`;
  drawPlot();
  render();
}
function render() { renderer.render(scene, camera); }
controls.addEventListener('change', render);

// --- legend ---------------------------------------------------------------------------------
function drawLegend() {
  const el = $('legend');
  el.innerHTML = '';
  const bar = document.createElement('canvas');
  bar.className = 'bar'; bar.width = 220; bar.height = 12;
  const g = bar.getContext('2d');
  for (let x = 0; x < 220; ++x) {
    const t = state.mode === 'heat' ? Math.exp((x / 219 * 2 - 1) * maxLog) : Math.exp((x / 219 * 2 - 1) * Math.log(Math.max(R.t_c, 1 / R.t_s)));
    if (state.mode === 'heat') heat(t, tmp);
    else {
      tmp[0] = 0.18 + 0.82 * compressOf(t); tmp[1] = 0.18 + 0.82 * stretchOf(t); tmp[2] = 0.18;
      for (let k = 0; k < 3; ++k) tmp[k] = toSRGB(tmp[k]);
    }
    g.fillStyle = `rgb(${tmp.map((c) => Math.round(255 * c)).join(',')})`;
    g.fillRect(x, 0, 1, 12);
  }
  const span = (s) => { const e = document.createElement('span'); e.textContent = s; return e; };
  if (state.mode === 'heat')
    el.append(span(`${Q} = ${fmt(shownValue(Math.exp(-maxLog)))} (stretch)`), bar, span(`${fmt(shownValue(Math.exp(maxLog)))} (compress)`),
      span(`· white: ${Q} = 1, log scale`));
  else {
    const L = Math.log(Math.max(R.t_c, 1 / R.t_s));
    el.append(span(`${Q} = ${fmt(shownValue(Math.exp(-L)))}`), bar, span(`${fmt(shownValue(Math.exp(L)))}`),
      span(principal ? '· green: stretch (λ_max > 1), red: compress (λ_min < 1)' : '· green: stretch (T < 1), red: compress (T > 1)'));
  }
}

// --- table and plot ---------------------------------------------------------------------------
const rows = [];
$('worst-title').textContent = data.check && data.check.failed ? 'Worst vertices past the limits' : `Worst vertices (farthest from ${Q} = 1)`;
$('value-head').textContent = principal ? 'λ' : 'T';
data.worst.forEach((w, i) => {
  const tr = document.createElement('tr');
  const f = allFrames[w.frame];
  for (const s of [meshes[w.mesh].name, w.vertex, w.kind, fmt(shownValue(w.t), 5), frameName(f)]) {
    const td = document.createElement('td'); td.textContent = String(s); tr.append(td);
  }
  tr.addEventListener('click', (ev) => selectRow(i, ev.ctrlKey || ev.metaKey || ev.shiftKey));
  $('worst').tBodies[0].append(tr);
  rows.push(tr);
});

// The shown frame nearest to frame index fi of all frames.
function nearestShown(fi) {
  let best = 0;
  for (let k = 1; k < shown.length; ++k) if (Math.abs(shown[k] - fi) < Math.abs(shown[best] - fi)) best = k;
  return best;
}
function selectRow(i, add) {
  if (add) {
    const at = state.selected.indexOf(i);
    if (at >= 0) state.selected.splice(at, 1); else state.selected.push(i);
  } else state.selected = [i];
  rows.forEach((r, j) => r.classList.toggle('selected', state.selected.includes(j)));
  const w = data.worst[i];
  state.marked = { mesh: w.mesh, vertex: w.vertex };
  pause();
  state.index = nearestShown(w.frame);
  applyFrame();
  // Orbit to the side the vertex faces (its normal), keeping the distance, so it is not hidden.
  const a = meshes[w.mesh].geometry.getAttribute('normal').array, v = w.vertex;
  const n = new THREE.Vector3(a[3 * v], a[3 * v + 1], a[3 * v + 2]);
  if (n.lengthSq() > 0.5) {
    // Not straight along the up axis, where the orbit has no defined heading.
    const view = camera.position.clone().sub(controls.target);
    const flat = Math.hypot(n.x, n.z) > 0.3 ? new THREE.Vector2(n.x, n.z) : new THREE.Vector2(view.x, view.z);
    if (flat.lengthSq() < 1e-12) flat.set(0, 1);
    flat.normalize();
    const y = Math.max(-0.8, Math.min(0.8, n.y)), r = Math.sqrt(1 - y * y);
    const dir = new THREE.Vector3(flat.x * r, y, flat.y * r);
    camera.position.copy(controls.target).addScaledVector(dir, view.length());
    controls.update();
    render();
  }
}

const palette = ['#ffd23f', '#3bceac', '#ee4266', '#5fa8ff', '#c77dff', '#ff9f1c', '#9bf6ff', '#caffbf'];
function drawPlot() {
  const c = $('plot');
  // Drawn at the size it is shown, so text stays sharp.
  if (c.clientWidth > 0 && c.width !== c.clientWidth) c.width = c.clientWidth;
  const g = c.getContext('2d'), W = c.width, H = c.height;
  const pad = { l: 48, r: 10, t: 10, b: 26 };
  g.clearRect(0, 0, W, H);
  const series = state.selected.map((i) => data.worst[i].series.map(shownValue));
  const limits = [];
  if (data.check) {
    if (data.check.max_stretch !== undefined) limits.push(['stretch limit', shownValue(data.check.max_stretch)]);
    if (data.check.max_compress !== undefined) limits.push(['compress limit', shownValue(data.check.max_compress)]);
  } else {
    limits.push(['full stretch', shownValue(R.t_s)], ['full compress', shownValue(R.t_c)]);
  }
  let lo = 1, hi = 1;
  for (const s of series) for (const t of s) { lo = Math.min(lo, t); hi = Math.max(hi, t); }
  for (const [, v] of limits) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const m = (hi - lo) * 0.08 || 0.05; lo -= m; hi += m;
  const t0 = allFrames[0].time, t1 = allFrames[allFrames.length - 1].time;
  const X = (t) => pad.l + (t1 > t0 ? (t - t0) / (t1 - t0) : 0.5) * (W - pad.l - pad.r);
  const Y = (v) => pad.t + (hi - v) / (hi - lo) * (H - pad.t - pad.b);
  g.font = '11px sans-serif'; g.fillStyle = '#aaa'; g.strokeStyle = '#555'; g.lineWidth = 1;
  g.strokeRect(pad.l, pad.t, W - pad.l - pad.r, H - pad.t - pad.b);
  for (let i = 0; i <= 4; ++i) {
    const v = lo + (hi - lo) * i / 4;
    g.fillText(fmt(v, 3), 4, Y(v) + 4);
  }
  g.fillText(`time (s) ${fmt(t0, 3)} .. ${fmt(t1, 3)}`, pad.l, H - 8);
  const hline = (v, colour, label) => {
    g.strokeStyle = colour; g.setLineDash([5, 4]); g.beginPath(); g.moveTo(pad.l, Y(v)); g.lineTo(W - pad.r, Y(v)); g.stroke();
    g.setLineDash([]); g.fillStyle = colour; g.fillText(label, W - pad.r - g.measureText(label).width - 2, Y(v) - 3);
  };
  hline(1, '#777', `${Q} = 1`);
  for (const [name, v] of limits) hline(v, name.includes('stretch') ? '#6c6' : '#e55', `${name} ${fmt(v)}`);
  series.forEach((s, j) => {
    g.strokeStyle = palette[j % palette.length]; g.lineWidth = 1.5; g.beginPath();
    s.forEach((t, f) => (f ? g.lineTo(X(allFrames[f].time), Y(t)) : g.moveTo(X(allFrames[f].time), Y(t))));
    g.stroke();
    const w = data.worst[state.selected[j]];
    g.fillStyle = palette[j % palette.length];
    g.fillText(`${meshes[w.mesh].name}:${w.vertex}`, pad.l + 6 + 90 * j, pad.t + 12);
  });
  g.lineWidth = 1;
  const now = allFrames[shown[state.index]].time;
  g.strokeStyle = '#fff'; g.beginPath(); g.moveTo(X(now), pad.t); g.lineTo(X(now), H - pad.b); g.stroke();
}

// --- playback -------------------------------------------------------------------------------
let last = null, acc = 0;
function tick(now) {
  if (!state.playing) return;
  if (last !== null) acc += (now - last) / 1000;
  last = now;
  // Advance by the clip's own timing between shown frames.
  const next = (state.index + 1) % shown.length;
  const dt = next === 0 ? 1 / data.fps : Math.max(allFrames[shown[next]].time - allFrames[shown[state.index]].time, 1e-3);
  if (acc >= dt) { acc -= dt; state.index = next; applyFrame(); }
  requestAnimationFrame(tick);
}
function play() { if (shown.length < 2) return; state.playing = true; $('play').textContent = 'Pause'; last = null; acc = 0; requestAnimationFrame(tick); }
function pause() { state.playing = false; $('play').textContent = 'Play'; }
$('play').addEventListener('click', () => (state.playing ? pause() : play()));
$('scrub').max = String(shown.length - 1);
$('scrub').addEventListener('input', () => { pause(); state.index = Number($('scrub').value); applyFrame(); });
$('rest').addEventListener('change', () => { state.rest = $('rest').checked; applyFrame(); });
$('mode').addEventListener('change', () => { state.mode = $('mode').value; drawLegend(); applyFrame(); });
if (hasMarks) {
  // The marks' legend, toggles and jumps to the worst frame of each verdict.
  $('marks').hidden = false;
  if (data.intersections) {
    $('mark-faces-item').hidden = false;
    $('mark-faces').addEventListener('change', () => { state.markFaces = $('mark-faces').checked; applyFrame(); });
    $('worst-intersection').addEventListener('click', () => { pause(); state.index = nearestShown(worstIntersectionFrame()); applyFrame(); });
  }
  if (data.volume) {
    $('mark-regions-item').hidden = false;
    $('mark-regions-label').textContent = `regions losing more than ${fmt(data.volume.limit * 100)}% of their bind volume`;
    $('mark-regions').addEventListener('change', () => { state.markRegions = $('mark-regions').checked; applyFrame(); });
    $('worst-volume').addEventListener('click', () => { pause(); state.index = nearestShown(worstVolume().frame); applyFrame(); });
  }
}

// report.html#frame=N opens paused at frame N (the nearest shown frame when N was subsampled).
function fromHash() {
  const m = /(?:^#|&)frame=(-?\d+)/.exec(location.hash);
  if (!m) return false;
  const n = Number(m[1]);
  let fi = allFrames.findIndex((f) => !f.bind && f.number === n);
  if (fi < 0) {
    fi = 0;
    allFrames.forEach((f, i) => { if (Math.abs(f.number - n) < Math.abs(allFrames[fi].number - n)) fi = i; });
  }
  pause();
  state.index = nearestShown(fi);
  applyFrame();
  return true;
}
window.addEventListener('hashchange', fromHash);

if (data.worst.length) { state.selected = [0]; rows[0].classList.add('selected'); }
drawLegend();
if (!fromHash()) { applyFrame(); play(); }

// For the browser tests and scripts: the state, and where a vertex is on the canvas.
window.rigscopeReport = {
  clips: page.clips ? page.clips.map((c) => c.name) : [],
  clip: page.clips ? page.clips[clipIndex].name : data.clip,
  get frameIndex() { return shown[state.index]; },
  get frameNumber() { return allFrames[shown[state.index]].number; },
  get playing() { return state.playing; },
  shownFrames: shown.slice(),
  pause() { pause(); },
  setFrame(fi) { pause(); state.index = nearestShown(fi); applyFrame(); },
  setRest(on) { state.rest = !!on; $('rest').checked = state.rest; applyFrame(); },
  setMode(mode) { state.mode = mode; $('mode').value = mode; drawLegend(); applyFrame(); },
  // CSS pixel position (page coordinates) of file vertex v of mesh m as currently drawn.
  screenOf(m, v) {
    const a = meshes[m].pos.array, p = new THREE.Vector3(a[3 * v], a[3 * v + 1], a[3 * v + 2]).project(camera);
    const r = canvas.getBoundingClientRect();
    return { x: r.left + window.scrollX + (p.x + 1) / 2 * r.width, y: r.top + window.scrollY + (1 - p.y) / 2 * r.height };
  },
  // T of file vertex v of mesh m at the shown frame k (decoded from the page).
  tAt(m, v, k) { return tOf(meshes[m], k)[v]; },
  // The stretch side's T (principal: 1 / lambda_max; other measures: the same T as tAt).
  tStretchAt(m, v, k) { return tsOf(meshes[m], k)[v]; },
  measure: { ...MEASURE },
  // The worst-vertex table's value column as drawn (header, then each row's text).
  tableValues() {
    return [$('value-head').textContent, ...Array.from($('worst').tBodies[0].rows, (r) => r.cells[3].textContent)];
  },
  measureText() { return $('measure').textContent; },
  // The drawn positions of mesh m (xyz per file vertex).
  positions(m) { return Array.from(meshes[m].pos.array); },
  // Each worst-vertex row's frame index.
  worstFrames: data.worst.map((w) => w.frame),
  tEncoding: { ...enc },
  get marked() { return state.marked ? { ...state.marked } : null; },
  // The frame index of the table's first row (its worst frame).
  background: [0x3a, 0x3b, 0x40],
  peakFrame() { return data.worst.length ? data.worst[0].frame : 0; },
  // Turns the camera to look at vertex v of mesh m along its normal, from near; returns its
  // canvas position.
  focus(m, v) {
    const a = meshes[m].pos.array, nrm = meshes[m].geometry.getAttribute('normal').array;
    const p = new THREE.Vector3(a[3 * v], a[3 * v + 1], a[3 * v + 2]);
    const n = new THREE.Vector3(nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2]);
    if (!(n.lengthSq() > 0.5)) n.copy(camera.position).sub(controls.target).normalize();
    controls.target.copy(p);
    camera.position.copy(p).addScaledVector(n, radius * 0.25);
    controls.update();
    render();
    const q = p.clone().project(camera);
    return { x: (q.x + 1) / 2 * canvas.width, y: (1 - q.y) / 2 * canvas.height };
  },
  // check's marks: the faces of mesh m coloured as crossing / as a region past the volume limit
  // now (file face ids), the colours, and each verdict's worst frame index.
  markColours: { faces: [0xff, 0x00, 0x00], regions: [0xff, 0x99, 0x00] },
  markedFaces(m) { const c = crossingAt.get(shown[state.index]); return state.markFaces && !state.rest && c ? c.faces[m].slice() : []; },
  worstIntersectionFrame: data.intersections ? worstIntersectionFrame() : null,
  worstVolumeFrame: data.volume ? worstVolume().frame : null,
  marksText() { return $('marks-status').textContent; },
  ready: true,
};
