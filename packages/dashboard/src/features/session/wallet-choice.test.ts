import { describe, expect, it } from "vitest";
import { walletChoices } from "./wallet-choice";

const generic = { id: "injected", name: "Injected" };
const metamask = { id: "io.metamask", name: "MetaMask" };
const rabby = { id: "io.rabby", name: "Rabby Wallet" };

describe("walletChoices", () => {
  it("offers the EIP-6963 wallets and hides the generic connector beside them", () => {
    expect(walletChoices([generic, metamask, rabby], true)).toEqual([metamask, rabby]);
  });

  it("falls back to window.ethereum when no wallet announced itself, and to nothing without it", () => {
    expect(walletChoices([generic], true)).toEqual([generic]);
    expect(walletChoices([generic], false)).toEqual([]);
  });
});
