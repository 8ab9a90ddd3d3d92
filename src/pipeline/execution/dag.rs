//! The plan as a graph for people: [`Dag`] renders the jobs stage by stage with their
//! dependencies, as text or as a Mermaid flowchart.
//!
//! Invariant: the rendering is a pure function of the plan's ids, stages and deps, in plan
//! order, so it is stable across runs and machines.

use std::collections::BTreeMap;

use super::job::{Job, StageName};

/// One node of the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DagNode {
    /// Job id.
    pub id: String,
    /// Its stage.
    pub stage: StageName,
    /// Its direct dependencies.
    pub deps: Vec<String>,
    /// Its note, if any.
    pub note: Option<String>,
}

/// The jobs and their dependency edges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dag {
    nodes: Vec<DagNode>,
}

impl Dag {
    /// The graph of `plan`.
    pub fn new(plan: &[Job]) -> Dag {
        Dag {
            nodes: plan
                .iter()
                .map(|j| DagNode {
                    id: j.id.clone(),
                    stage: j.stage,
                    deps: j.deps.clone(),
                    note: j.note.clone(),
                })
                .collect(),
        }
    }

    /// The nodes, in plan order.
    pub fn nodes(&self) -> &[DagNode] {
        &self.nodes
    }

    fn by_stage(&self) -> Vec<(StageName, Vec<&DagNode>)> {
        StageName::ALL
            .into_iter()
            .map(|s| {
                (
                    s,
                    self.nodes
                        .iter()
                        .filter(|n| n.stage == s)
                        .collect::<Vec<_>>(),
                )
            })
            .filter(|(_, v)| !v.is_empty())
            .collect()
    }

    /// Stage by stage, each job with its dependencies.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (stage, nodes) in self.by_stage() {
            let n = nodes.len();
            s.push_str(&format!(
                "{stage} ({n} job{})\n",
                if n == 1 { "" } else { "s" }
            ));
            for node in nodes {
                s.push_str(&format!("  {}\n", node.id));
                for d in &node.deps {
                    s.push_str(&format!("      <- {d}\n"));
                }
            }
        }
        let mut notes: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for node in &self.nodes {
            if let Some(note) = &node.note {
                notes.entry(note.as_str()).or_default().push(&node.id);
            }
        }
        for (note, ids) in notes {
            s.push_str(&format!(
                "note ({} job{}, from {}): {note}\n",
                ids.len(),
                if ids.len() == 1 { "" } else { "s" },
                ids[0]
            ));
        }
        s
    }

    /// A Mermaid flowchart: one subgraph per stage, one edge per dependency.
    pub fn to_mermaid(&self) -> String {
        let ids: BTreeMap<&str, String> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.as_str(), format!("n{i}")))
            .collect();
        let mut s = String::from("flowchart LR\n");
        for (stage, nodes) in self.by_stage() {
            s.push_str(&format!("  subgraph {stage}\n"));
            for node in nodes {
                s.push_str(&format!(
                    "    {}[\"{}\"]\n",
                    ids[node.id.as_str()],
                    node.id.replace('"', "'")
                ));
            }
            s.push_str("  end\n");
        }
        for node in &self.nodes {
            for d in &node.deps {
                if let Some(from) = ids.get(d.as_str()) {
                    s.push_str(&format!("  {from} --> {}\n", ids[node.id.as_str()]));
                }
            }
        }
        s
    }
}
