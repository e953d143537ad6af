# Build stage: the release binary.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock build.rs ./
COPY src src
COPY benches benches
# The fixtures are embedded as the desk's examples (build.rs).
COPY fixtures fixtures
RUN cargo build --release --locked --bin arbiter

# Runtime stage: a small Debian image, a non-root user, the data directory on a volume.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /data --create-home arbiter
COPY --from=build /src/target/release/arbiter /usr/local/bin/arbiter
USER arbiter
WORKDIR /data
VOLUME ["/data"]
ENV ARBITER_HOST=0.0.0.0 ARBITER_PORT=8080 ARBITER_DB=/data/arbiter.db
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/arbiter"]
CMD ["serve"]
