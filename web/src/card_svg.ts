/** A card drawn in SVG from its code (no image per card): the face `cards.face` describes. */
import { face, parseCard } from "./cards.js";
import { svg } from "./dom.js";

const W = 100;
const H = 140;

export function cardSvg(code: string, fourColour: boolean, action = false): SVGElement {
  const card = parseCard(code);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "face", "aria-hidden": "true" });
  if (!card) {
    root.append(svg("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 9, class: "back" }));
    return root;
  }
  const f = face(card, fourColour, action);
  root.append(svg("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 9, fill: f.fill, stroke: "#80808a", "stroke-width": 2 }));
  if (!card.standard) {
    // The colour deck's oval; a wild's in four colour quarters.
    if (card.suit === null) {
      const quarters: [string, number, number][] = [["#ce322e", 0, 0], ["#1e66c2", 50, 0], ["#ecb81e", 0, 70], ["#2a944c", 50, 70]];
      const clip = svg("clipPath", { id: `o${code.replace(/\W/g, "_")}` }, svg("ellipse", { cx: 50, cy: 70, rx: 34, ry: 50, transform: "rotate(20 50 70)" }));
      const g = svg("g", { "clip-path": `url(#o${code.replace(/\W/g, "_")})` });
      for (const [c, x, y] of quarters) g.append(svg("rect", { x, y, width: 50, height: 70, fill: c }));
      root.append(clip, g);
    } else {
      root.append(svg("ellipse", { cx: 50, cy: 70, rx: 34, ry: 50, fill: "#ffffff", transform: "rotate(20 50 70)" }));
    }
  }
  const centreInk = !card.standard && card.suit !== null ? f.fill : f.ink;
  const big = f.centre.length > 2 ? 30 : f.centre.length > 1 ? 40 : 56;
  root.append(svg("text", { x: 50, y: 70, "font-size": big, fill: centreInk, "text-anchor": "middle", "dominant-baseline": "central", "font-weight": 700 }, f.centre));
  if (f.badge === "_") {
    root.append(svg("rect", { x: 40, y: 96, width: 20, height: 4, fill: centreInk }));
  } else if (f.badge) {
    root.append(svg("text", { x: 50, y: 108, "font-size": 20, fill: f.ink, "text-anchor": "middle", "font-weight": 700 }, f.badge));
  }
  const small = f.corner.length > 2 ? 17 : 22;
  root.append(svg("text", { x: 8, y: 24, "font-size": small, fill: f.ink, "font-weight": 700 }, f.corner));
  root.append(svg("text", { x: 92, y: 132, "font-size": small, fill: f.ink, "font-weight": 700, "text-anchor": "end" }, f.corner));
  return root;
}

/** The back of a card (the draw pile, an opponent's hand). */
export function backSvg(): SVGElement {
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "face", "aria-hidden": "true" });
  root.append(svg("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 9, fill: "#23408e", stroke: "#dfb248", "stroke-width": 3 }));
  root.append(svg("rect", { x: 12, y: 12, width: W - 24, height: H - 24, rx: 6, fill: "none", stroke: "#dfb248", "stroke-width": 2 }));
  root.append(svg("text", { x: 50, y: 70, "font-size": 40, fill: "#dfb248", "text-anchor": "middle", "dominant-baseline": "central", "font-weight": 700 }, "8"));
  return root;
}
