//! A small multilayer perceptron read from a file of weights: the forward pass of the learned
//! bots, written by hand (no inference library), in `f32`.
//!
//! The file (`docs/python.md`, "The learned baseline"), all numbers little-endian:
//! the 8 bytes `YZMLP1\n\0`; a `u32` count of layers; for each layer its `u32` inputs and `u32`
//! outputs; then for each layer its weights as `f32`, one row of `inputs` per output, and its
//! `outputs` biases. Every layer but the last is followed by a ReLU; the last gives the scores.

/// The magic bytes that begin a weights file.
pub const MAGIC: &[u8; 8] = b"YZMLP1\n\0";

/// A weights file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MlpError {
    /// The file does not begin with [`MAGIC`].
    #[error("not a yezi weights file (no YZMLP1 header)")]
    Magic,
    /// The file ends before the sizes say it should, or goes on after.
    #[error("weights file of {got} bytes where its sizes need {want}")]
    Length {
        /// The file's length.
        got: usize,
        /// The length its header implies.
        want: usize,
    },
    /// A layer's inputs differ from the previous layer's outputs, or a size is zero or too large.
    #[error("layer {0} does not fit the one before it")]
    Shape(usize),
}

/// One dense layer: `out = W · x + b`.
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    inputs: usize,
    outputs: usize,
    /// `outputs` rows of `inputs`.
    w: Vec<f32>,
    b: Vec<f32>,
}

/// A multilayer perceptron with ReLU between its layers.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    layers: Vec<Layer>,
}

impl Mlp {
    /// Reads a weights file.
    pub fn parse(bytes: &[u8]) -> Result<Mlp, MlpError> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(MlpError::Magic);
        }
        let u32_at = |at: usize| -> Option<usize> {
            bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let short = |want| MlpError::Length { got: bytes.len(), want };
        let n = u32_at(8).ok_or(short(12))?;
        if n == 0 || n > 16 {
            return Err(MlpError::Shape(0));
        }
        let mut shapes = Vec::with_capacity(n);
        let mut want = 12 + 8 * n;
        for i in 0..n {
            let (inputs, outputs) =
                (u32_at(12 + 8 * i).ok_or(short(want))?, u32_at(16 + 8 * i).ok_or(short(want))?);
            if inputs == 0 || outputs == 0 || inputs > 1 << 16 || outputs > 1 << 16 {
                return Err(MlpError::Shape(i));
            }
            if let Some(&(_, prev)) = shapes.last()
                && prev != inputs
            {
                return Err(MlpError::Shape(i));
            }
            want += 4 * (inputs * outputs + outputs);
            shapes.push((inputs, outputs));
        }
        if bytes.len() != want {
            return Err(short(want));
        }
        let mut at = 12 + 8 * n;
        let mut floats = |count: usize| -> Vec<f32> {
            let v = bytes[at..at + 4 * count]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            at += 4 * count;
            v
        };
        let layers = shapes
            .into_iter()
            .map(|(inputs, outputs)| {
                let w = floats(inputs * outputs);
                let b = floats(outputs);
                Layer { inputs, outputs, w, b }
            })
            .collect();
        Ok(Mlp { layers })
    }

    /// The length of the input.
    pub fn inputs(&self) -> usize {
        self.layers[0].inputs
    }

    /// The length of the output.
    pub fn outputs(&self) -> usize {
        self.layers[self.layers.len() - 1].outputs
    }

    /// The number of weights and biases.
    pub fn parameters(&self) -> usize {
        self.layers.iter().map(|l| l.w.len() + l.b.len()).sum()
    }

    /// The scores of input `x` (of length [`Mlp::inputs`]; a shorter one is read as padded with
    /// zeros, a longer one cut).
    pub fn forward(&self, x: &[f32]) -> Vec<f32> {
        let mut cur: Vec<f32> = (0..self.inputs()).map(|i| x.get(i).copied().unwrap_or(0.0)).collect();
        let last = self.layers.len() - 1;
        for (k, l) in self.layers.iter().enumerate() {
            let mut next = l.b.clone();
            for (o, row) in l.w.chunks_exact(l.inputs).enumerate() {
                // The inputs are mostly 0 or 1 and sparse: skip the zeros.
                let mut s = 0f32;
                for (w, &xi) in row.iter().zip(&cur) {
                    if xi != 0.0 {
                        s += w * xi;
                    }
                }
                next[o] += s;
            }
            if k != last {
                for v in &mut next {
                    *v = v.max(0.0);
                }
            }
            debug_assert_eq!(next.len(), l.outputs);
            cur = next;
        }
        cur
    }

    /// The file of these weights (what [`Mlp::parse`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.layers.len() as u32).to_le_bytes());
        for l in &self.layers {
            out.extend_from_slice(&(l.inputs as u32).to_le_bytes());
            out.extend_from_slice(&(l.outputs as u32).to_le_bytes());
        }
        for l in &self.layers {
            for v in l.w.iter().chain(&l.b) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2-3-2 network with known weights.
    fn tiny() -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        for v in [2u32, 2, 3, 3, 2] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        // Layer 0: hidden 0 = x0, hidden 1 = x1 + 0.5, hidden 2 = -(x0 + x1); layer 1 below.
        let w1 = [1.0f32, 0.0, 0.0, 1.0, -1.0, -1.0];
        let b1 = [0.0f32, 0.5, 0.0];
        let w2 = [1.0f32, 1.0, 1.0, 2.0, 0.0, -1.0];
        let b2 = [0.25f32, -0.25];
        for v in w1.iter().chain(&b1).chain(&w2).chain(&b2) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    #[test]
    fn forward_by_hand() {
        let m = Mlp::parse(&tiny()).unwrap();
        assert_eq!((m.inputs(), m.outputs(), m.parameters()), (2, 2, 6 + 3 + 6 + 2));
        // x = (1, 2): hidden relu(1, 2.5, -3) = (1, 2.5, 0); out (3.5 + 0.25, 2 - 0.25).
        assert_eq!(m.forward(&[1.0, 2.0]), vec![3.75, 1.75]);
        // x = (-2, 1): hidden relu(-2, 1.5, 1) = (0, 1.5, 1); out (2.5 + .25, -1 - .25).
        assert_eq!(m.forward(&[-2.0, 1.0]), vec![2.75, -1.25]);
        assert_eq!(Mlp::parse(&m.to_bytes()).unwrap(), m);
    }

    #[test]
    fn bad_files_are_refused() {
        let good = tiny();
        assert_eq!(Mlp::parse(b"nonsense"), Err(MlpError::Magic));
        assert!(matches!(Mlp::parse(&good[..good.len() - 1]), Err(MlpError::Length { .. })));
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(Mlp::parse(&long), Err(MlpError::Length { .. })));
        let mut misfit = good.clone();
        misfit[20..24].copy_from_slice(&4u32.to_le_bytes()); // layer 1 takes 4 inputs, not 3
        assert_eq!(Mlp::parse(&misfit), Err(MlpError::Shape(1)));
    }
}
