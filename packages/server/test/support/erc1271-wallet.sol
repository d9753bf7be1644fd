// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// The smallest ERC-1271 wallet: a signature is valid when its signer is the wallet's owner.
contract Erc1271Wallet {
    address public immutable owner;

    constructor(address walletOwner) {
        owner = walletOwner;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

/// Deploys wallets at CREATE2 addresses known in advance: what an ERC-6492 signature names.
contract Erc1271WalletFactory {
    function deploy(address walletOwner, bytes32 salt) external returns (address) {
        return address(new Erc1271Wallet{salt: salt}(walletOwner));
    }
}
