// The part of autocannon's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string
    connections?: number
    duration?: number
    amount?: number
    timeout?: number
    headers?: Record<string, string>
  }
  interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p97_5: number
    p99: number
  }
  interface Result {
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    latency: Histogram
    requests: Histogram & { sent: number }
    throughput: Histogram
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
