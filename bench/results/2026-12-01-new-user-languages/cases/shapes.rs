use std::collections::HashMap;
use std::fmt;

/// A shape in the plane.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
    Poly(Vec<(f64, f64)>),
}

impl Shape {
    pub fn area(&self) -> f64 {
        match self {
            Shape::Circle { r } => std::f64::consts::PI * r * r,
            Shape::Rect { w, h } => w * h,
            Shape::Poly(points) => {
                let mut sum = 0.0;
                for i in 0..points.len() {
                    let (x1, y1) = points[i];
                    let (x2, y2) = points[(i + 1) % points.len()];
                    sum += x1 * y2 - x2 * y1;
                }
                (sum / 2.0).abs()
            }
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Shape::Circle { .. } => "circle",
            Shape::Rect { .. } => "rect",
            Shape::Poly(_) => "poly",
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({:.2})", self.name(), self.area())
    }
}

pub trait Store {
    type Key;
    fn put(&mut self, key: Self::Key, shape: Shape) -> Option<Shape>;
    fn get(&self, key: &Self::Key) -> Option<&Shape>;
    fn total_area(&self) -> f64;
}

#[derive(Default)]
pub struct MapStore {
    items: HashMap<String, Shape>,
    writes: usize,
}

impl Store for MapStore {
    type Key = String;
    fn put(&mut self, key: String, shape: Shape) -> Option<Shape> {
        self.writes += 1;
        self.items.insert(key, shape)
    }
    fn get(&self, key: &String) -> Option<&Shape> {
        self.items.get(key)
    }
    fn total_area(&self) -> f64 {
        self.items.values().map(|s| s.area()).sum()
    }
}

pub struct Stats {
    pub count: usize,
    pub largest: Option<String>,
    pub by_kind: HashMap<&'static str, usize>,
}

pub fn stats(store: &MapStore) -> Stats {
    let mut by_kind = HashMap::new();
    let mut largest: Option<(&String, f64)> = None;
    for (key, shape) in &store.items {
        *by_kind.entry(shape.name()).or_insert(0) += 1;
        let a = shape.area();
        match largest {
            Some((_, best)) if best >= a => {}
            _ => largest = Some((key, a)),
        }
    }
    Stats {
        count: store.items.len(),
        largest: largest.map(|(k, _)| k.clone()),
        by_kind,
    }
}

pub fn parse_shape(text: &str) -> Result<Shape, String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    match parts.as_slice() {
        ["circle", r] => r.parse().map(|r| Shape::Circle { r }).map_err(|e| format!("{e}")),
        ["rect", w, h] => {
            let w: f64 = w.parse().map_err(|e| format!("{e}"))?;
            let h: f64 = h.parse().map_err(|e| format!("{e}"))?;
            Ok(Shape::Rect { w, h })
        }
        ["poly", rest @ ..] => {
            let mut points = Vec::new();
            for pair in rest.chunks(2) {
                if pair.len() != 2 {
                    return Err("odd number of coordinates".to_string());
                }
                let x: f64 = pair[0].parse().map_err(|e| format!("{e}"))?;
                let y: f64 = pair[1].parse().map_err(|e| format!("{e}"))?;
                points.push((x, y));
            }
            Ok(Shape::Poly(points))
        }
        _ => Err(format!("unknown shape: {text}")),
    }
}

pub fn load(lines: &[&str]) -> (MapStore, Vec<String>) {
    let mut store = MapStore::default();
    let mut errors = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match parse_shape(line) {
            Ok(shape) => {
                store.put(format!("s{i}"), shape);
            }
            Err(e) => errors.push(format!("line {}: {}", i + 1, e)),
        }
    }
    (store, errors)
}

pub fn report(store: &MapStore) -> String {
    let s = stats(store);
    let mut out = String::new();
    out.push_str(&format!("{} shapes, total area {:.2}\n", s.count, store.total_area()));
    let mut kinds: Vec<_> = s.by_kind.iter().collect();
    kinds.sort();
    for (kind, n) in kinds {
        out.push_str(&format!("  {kind}: {n}\n"));
    }
    if let Some(key) = s.largest {
        let shape = store.get(&key).unwrap();
        let scaled: u32 = shape.area() * 2.0;
        out.push_str(&format!("largest: {key} = {shape} ({scaled})\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas() {
        assert_eq!(Shape::Rect { w: 2.0, h: 3.0 }.area(), 6.0);
        let square = Shape::Poly(vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
        assert!((square.area() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn loading() {
        let (store, errors) = load(&["circle 1", "rect 2 3", "hexagon"]);
        assert_eq!(store.items.len(), 2);
        assert_eq!(errors.len(), 1);
    }
}
