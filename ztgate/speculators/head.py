"""The EAGLE-3 draft head in plain torch, computing what vLLM's `Eagle3LlamaForCausalLM` computes.

Written from vLLM 0.32's model_executor/models/llama_eagle3.py (the serving side) so that weights
trained here mean the same thing there: `fc` folds three target hidden states (3H) into one (H);
one Llama decoder layer whose attention reads concat(input_layernorm(embed(token)),
hidden_norm(hidden)) (2H); with `norm_before_residual` the residual is the normed hidden state; a
final RMSNorm and an `lm_head` over the draft vocabulary. The token embedding is the target's own
(not trained, not saved: vLLM shares the target's when the checkpoint has none). Parameter names
are the checkpoint's tensor names.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn
from transformers import LlamaConfig
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

NUM_AUX_HIDDEN_STATES = 3


class RMSNorm(nn.Module):
    def __init__(self, size: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x32 = x.float()
        return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype) * self.weight


class Attention(nn.Module):
    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        h = config.hidden_size
        self.num_heads = config.num_attention_heads
        self.num_kv_heads = config.num_key_value_heads
        self.head_dim = getattr(config, "head_dim", None) or h // self.num_heads
        self.q_proj = nn.Linear(2 * h, self.num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(2 * h, self.num_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(2 * h, self.num_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(self.num_heads * self.head_dim, h, bias=False)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                cache: list[tuple[torch.Tensor, torch.Tensor]] | None = None) -> torch.Tensor:
        """Causal attention; with `cache` (the keys and values of earlier unroll steps, this step's
        appended) the query at index t also sees each earlier step's key at index t, as the draft
        position t+j sees its own chain in vLLM's KV cache (test-time-training unroll)."""
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.num_kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.num_kv_heads, self.head_dim).transpose(1, 2)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        repeat = self.num_heads // self.num_kv_heads
        k, v = k.repeat_interleave(repeat, dim=1), v.repeat_interleave(repeat, dim=1)
        if cache is None:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.o_proj(out.transpose(1, 2).reshape(b, t, -1))
        cache.append((k, v))
        (k0, v0), chain = cache[0], cache[1:]
        scale = self.head_dim ** -0.5
        scores = (q @ k0.transpose(-1, -2)) * scale
        scores = scores.masked_fill(torch.ones(t, t, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
        if chain:
            diag = torch.cat([(q * ks).sum(-1, keepdim=True) * scale for ks, _ in chain], dim=-1)
            scores = torch.cat([scores, diag], dim=-1)
        weights = scores.softmax(-1)
        out = weights[..., :t] @ v0
        for i, (_, vs) in enumerate(chain):
            out = out + weights[..., t + i:t + i + 1] * vs
        return self.o_proj(out.transpose(1, 2).reshape(b, t, -1))


class MLP(nn.Module):
    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        h, i = config.hidden_size, config.intermediate_size
        self.gate_proj = nn.Linear(h, i, bias=False)
        self.up_proj = nn.Linear(h, i, bias=False)
        self.down_proj = nn.Linear(i, h, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    def __init__(self, config: LlamaConfig, norm_before_residual: bool) -> None:
        super().__init__()
        eps = config.rms_norm_eps
        self.input_layernorm = RMSNorm(config.hidden_size, eps)
        self.hidden_norm = RMSNorm(config.hidden_size, eps)
        self.post_attention_layernorm = RMSNorm(config.hidden_size, eps)
        self.self_attn = Attention(config)
        self.mlp = MLP(config)
        self.norm_before_residual = norm_before_residual

    def forward(self, embeds: torch.Tensor, hidden: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                cache: list[tuple[torch.Tensor, torch.Tensor]] | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        embeds = self.input_layernorm(embeds)
        normed = self.hidden_norm(hidden)
        residual = normed if self.norm_before_residual else hidden
        x = self.self_attn(torch.cat([embeds, normed], dim=-1), cos, sin, cache)
        residual = x + residual
        return self.mlp(self.post_attention_layernorm(residual)), residual


class Eagle3Head(nn.Module):
    """forward(embeds, aux_hidden, position_ids) -> (draft logits, the pre-norm hidden state that
    vLLM feeds back as `hidden` for the next draft position)."""

    def __init__(self, config: LlamaConfig, draft_vocab_size: int, norm_before_residual: bool = True) -> None:
        super().__init__()
        h = config.hidden_size
        self.fc = nn.Linear(NUM_AUX_HIDDEN_STATES * h, h, bias=False)
        self.layers = nn.ModuleList([DecoderLayer(config, norm_before_residual)])
        self.norm = RMSNorm(h, config.rms_norm_eps)
        self.lm_head = nn.Linear(h, draft_vocab_size, bias=False)
        self.rotary = LlamaRotaryEmbedding(config)

    def forward(self, embeds: torch.Tensor, aux_hidden: torch.Tensor,
                position_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = self.fc(aux_hidden)
        cos, sin = self.rotary(hidden, position_ids)
        out, residual = self.layers[0](embeds, hidden, cos, sin)
        prenorm = out + residual
        return self.lm_head(self.norm(prenorm)), prenorm

    def unroll(self, embeds: torch.Tensor, aux_hidden: torch.Tensor, position_ids: torch.Tensor,
               steps: int) -> list[torch.Tensor]:
        """Draft logits for unroll steps 0..steps-1: step j at index t reads the token at t+j (embeds
        shifted left by j, zero past the end), its own step j-1 output as hidden state, at position
        t+j, and predicts what step 0 at index t+j predicts. Step 0 is `forward`."""
        cache: list[tuple[torch.Tensor, torch.Tensor]] = []
        hidden = self.fc(aux_hidden)
        out = []
        for j in range(steps):
            step_embeds = embeds if j == 0 else F.pad(embeds[:, j:], (0, 0, 0, j))
            cos, sin = self.rotary(hidden, position_ids + j)
            x, residual = self.layers[0](step_embeds, hidden, cos, sin, cache)
            hidden = x + residual
            out.append(self.lm_head(self.norm(hidden)))
        return out

    def weights(self) -> dict[str, torch.Tensor]:
        """The trained tensors under their checkpoint names (the rotary cache is derived, not saved)."""
        return {name: p.detach().contiguous() for name, p in self.named_parameters()}
