# SwapBay: one static binary with the React UI embedded. Mirrors `make build` step by step:
# 1) build the UI with Node, 2) build the Go binary embedding ui/dist, 3) copy it into a
# small runtime image. Data lives in /pb_data (mount a volume there).

# --- 1. UI ---------------------------------------------------------------------------
FROM node:20-bookworm-slim AS ui
WORKDIR /src/ui
COPY ui/package.json ui/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY ui/ ./
RUN npm run build

# --- 2. Go binary ----------------------------------------------------------------------
FROM golang:1.27-bookworm AS go
ENV CGO_ENABLED=0 GOTOOLCHAIN=auto
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=ui /src/ui/dist ./ui/dist
RUN go build -trimpath -o /out/swapbay ./pb_app

# --- 3. Runtime --------------------------------------------------------------------------
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=go /out/swapbay /swapbay
VOLUME ["/pb_data"]
EXPOSE 8090
ENTRYPOINT ["/swapbay"]
CMD ["serve", "--http=0.0.0.0:8090", "--dir=/pb_data"]
