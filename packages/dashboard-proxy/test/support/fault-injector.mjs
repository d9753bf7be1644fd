// Loaded into a server child process with `--import` (test/reliability/process-faults.test.ts): SIGUSR2 leaves
// a promise rejected with nothing to handle it, SIGHUP throws from a callback, as a library's bug
// would. The error names a credential-bearing URL and a request body, which no log line may show.
const failure = () =>
  new Error(
    'HTTP request failed.\nURL: https://rpcuser:rpcpass@rpc.example/v3/sk_provider_key\nRequest body: {"method":"eth_getCode","params":["0xpayload"]}',
  );

process.on("SIGUSR2", () => {
  void Promise.reject(failure());
});
process.on("SIGHUP", () => {
  setImmediate(() => {
    throw failure();
  });
});
