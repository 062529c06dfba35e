// Runs s3rver (a devDependency) as its own process for tests: `node --openssl-legacy-provider
// run-s3rver.cjs <folder> <bucket>`. The legacy provider is for s3rver's ListObjectsV2
// continuation tokens (DES), which OpenSSL 3 refuses otherwise. Prints the port, then serves
// until its standard input closes (the test process ended).
const S3rver = require('s3rver');

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: process.env.S3RVER_LOG !== '1', directory, configureBuckets: [{ name: bucket }] });
server.run().then(({ port }) => process.stdout.write(`${port}\n`));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
