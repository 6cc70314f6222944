//! WebSocket frames on a connection the gateway owns outright (RFC 6455):
//! a [`FrameReader`] that holds no buffer while the client is silent, and a
//! [`FrameWriter`] that sends a frame's few header bytes and its shared
//! payload in one vectored write, copying nothing. An idle connection costs
//! its socket and a few small structs, not the HTTP server's 16 KiB of
//! buffers (docs/realtime.md › Memory per connection).

use actix_codec::Decoder;
use actix_http::ws::{Codec, Frame, ProtocolError};
use bytes::BytesMut;
use std::io::{self, IoSlice};
use tokio::io::AsyncWriteExt;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

/// Bytes asked of the socket per read while a message arrives.
const READ_CHUNK: usize = 4096;

/// Frame opcodes a server sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opcode {
    Text = 0x1,
    Close = 0x8,
    Ping = 0x9,
    Pong = 0xA,
}

/// The header of one unmasked, final server frame carrying `len` bytes:
/// 2, 4 or 10 bytes.
pub fn header(opcode: Opcode, len: usize) -> ([u8; 10], usize) {
    let mut head = [0u8; 10];
    head[0] = 0x80 | opcode as u8;
    let used = if len < 126 {
        head[1] = len as u8;
        2
    } else if let Ok(short) = u16::try_from(len) {
        head[1] = 126;
        head[2..4].copy_from_slice(&short.to_be_bytes());
        4
    } else {
        head[1] = 127;
        head[2..10].copy_from_slice(&(len as u64).to_be_bytes());
        10
    };
    (head, used)
}

/// A close frame's payload: the code, then a reason cut to fit the 125
/// bytes a control frame may carry (at a character boundary).
pub fn close_payload(code: u16, reason: &str) -> Vec<u8> {
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    let mut payload = code.to_be_bytes().to_vec();
    payload.extend_from_slice(&reason.as_bytes()[..end]);
    payload
}

/// Longest payload a control frame may carry (RFC 6455 §5.5).
const MAX_CONTROL_PAYLOAD: u64 = 125;

/// The payload length a frame's header announces, once enough of the
/// header has arrived (`None` before that).
pub fn announced_length(buf: &[u8]) -> Option<u64> {
    let second = *buf.get(1)?;
    match second & 0x7F {
        126 => Some(u64::from(u16::from_be_bytes(buf.get(2..4)?.try_into().ok()?))),
        127 => Some(u64::from_be_bytes(buf.get(2..10)?.try_into().ok()?)),
        short => Some(u64::from(short)),
    }
}

/// Refuses a frame by its header alone: a payload over `max` (or a control
/// frame over 125 bytes) is an error before a byte of it is buffered. The
/// codec compares the length with its limit only once the whole payload has
/// arrived, so a header announcing 2^62 bytes would otherwise be buffered
/// for as long as the client streams.
fn refuse_by_header(buf: &[u8], max: usize) -> Option<ProtocolError> {
    let len = announced_length(buf)?;
    let control = buf[0] & 0x08 != 0;
    if control && len > MAX_CONTROL_PAYLOAD {
        return Some(ProtocolError::InvalidLength(usize::try_from(len).unwrap_or(usize::MAX)));
    }
    (len > max as u64).then_some(ProtocolError::Overflow)
}

/// The client's half: frames as they arrive, decoded by actix-http's
/// WebSocket codec (masking, control frames), each refused by its header
/// when it announces more than the size limit. What the reader buffers is
/// bounded by one frame under the limit and one read.
pub struct FrameReader {
    half: OwnedReadHalf,
    codec: Codec,
    buf: BytesMut,
    max_frame_bytes: usize,
}

impl FrameReader {
    /// `early` holds bytes the client sent right behind its handshake.
    pub fn new(half: OwnedReadHalf, early: BytesMut, max_frame_bytes: usize) -> Self {
        FrameReader { half, codec: Codec::new().max_size(max_frame_bytes), buf: early, max_frame_bytes }
    }

    /// The next frame; `None` when the client closed the connection.
    /// Cancel-safe: bytes read stay in the reader.
    pub async fn recv(&mut self) -> Option<Result<Frame, ProtocolError>> {
        loop {
            if let Some(refused) = refuse_by_header(&self.buf, self.max_frame_bytes) {
                return Some(Err(refused));
            }
            match self.codec.decode(&mut self.buf) {
                Ok(Some(frame)) => return Some(Ok(frame)),
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
            if self.buf.is_empty() {
                // Silent clients hold no buffer.
                self.buf = BytesMut::new();
            }
            if let Err(e) = self.half.readable().await {
                return Some(Err(ProtocolError::Io(e)));
            }
            self.buf.reserve(READ_CHUNK);
            match self.half.try_read_buf(&mut self.buf) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Some(Err(ProtocolError::Io(e))),
            }
        }
    }
}

/// The server's half: whole frames, written straight from their bytes.
pub struct FrameWriter {
    half: OwnedWriteHalf,
    closed: bool,
}

impl FrameWriter {
    pub fn new(half: OwnedWriteHalf) -> Self {
        FrameWriter { half, closed: false }
    }

    /// Writes one frame. After a close frame nothing more is sent.
    pub async fn send(&mut self, opcode: Opcode, payload: &[u8]) -> io::Result<()> {
        if self.closed {
            return Err(io::Error::new(io::ErrorKind::NotConnected, "close frame already sent"));
        }
        if opcode == Opcode::Close {
            self.closed = true;
        }
        let (head, used) = header(opcode, payload.len());
        let head = &head[..used];
        let total = head.len() + payload.len();
        let mut written = 0;
        while written < total {
            let n = if written < head.len() {
                let parts = [IoSlice::new(&head[written..]), IoSlice::new(payload)];
                self.half.write_vectored(&parts).await?
            } else {
                self.half.write(&payload[written - head.len()..]).await?
            };
            if n == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            written += n;
        }
        Ok(())
    }

    pub async fn close(&mut self, code: u16, reason: &str) -> io::Result<()> {
        self.send(Opcode::Close, &close_payload(code, reason)).await
    }

    /// Makes the connection's last close a reset (zero linger): what was
    /// queued for a client that stopped reading is discarded, not kept in
    /// the kernel for as long as the client likes.
    pub fn reset_on_close(&self) {
        let _ = self.half.as_ref().set_zero_linger();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_use_the_shortest_length_form() {
        assert_eq!(header(Opcode::Text, 5), ([0x81, 5, 0, 0, 0, 0, 0, 0, 0, 0], 2));
        assert_eq!(header(Opcode::Text, 125).1, 2);
        let (head, used) = header(Opcode::Text, 126);
        assert_eq!((&head[..used], used), (&[0x81, 126, 0, 126][..], 4));
        let (head, used) = header(Opcode::Ping, 70_000);
        assert_eq!(&head[..used], &[0x89, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]);
    }

    #[test]
    fn a_close_reason_is_cut_to_fit_a_control_frame_at_a_character() {
        let payload = close_payload(1008, &"é".repeat(100));
        assert!(payload.len() <= 125);
        assert_eq!(&payload[..2], &1008u16.to_be_bytes());
        assert!(std::str::from_utf8(&payload[2..]).is_ok());
        assert_eq!(close_payload(1000, ""), vec![0x03, 0xE8]);
    }

    #[test]
    fn a_header_is_refused_as_soon_as_its_length_is_known() {
        // 2^62 bytes announced: refused from the ten header bytes alone.
        let mut huge = vec![0x81, 0xFF];
        huge.extend_from_slice(&(1u64 << 62).to_be_bytes());
        assert!(matches!(refuse_by_header(&huge, 65_536), Some(ProtocolError::Overflow)));
        assert!(refuse_by_header(&huge[..9], 65_536).is_none(), "not yet the whole length");
        // 65,537 in the 64-bit form, 65,536 at the limit in the 16-bit form.
        let mut over = vec![0x81, 0xFF];
        over.extend_from_slice(&65_537u64.to_be_bytes());
        assert!(matches!(refuse_by_header(&over, 65_536), Some(ProtocolError::Overflow)));
        assert!(refuse_by_header(&[0x81, 0xFE, 0xFF, 0xFF], 65_536).is_none());
        assert!(matches!(refuse_by_header(&[0x81, 0xFE, 0x10, 0x01], 4096), Some(ProtocolError::Overflow)));
        // A continuation counts like any data frame; a ping over 125 bytes is refused.
        assert!(matches!(refuse_by_header(&[0x00, 0xFE, 0x10, 0x01], 4096), Some(ProtocolError::Overflow)));
        assert!(matches!(refuse_by_header(&[0x89, 0xFE, 0x00, 0x7E], 4096), Some(ProtocolError::InvalidLength(126))));
        assert!(refuse_by_header(&[0x89, 0xFD], 4096).is_none());
        assert!(refuse_by_header(&[0x81], 4096).is_none());
    }

    /// Frames we write are read back as the client would by the same
    /// codec in client mode.
    #[test]
    fn written_headers_decode_as_frames() {
        for len in [0usize, 1, 125, 126, 65_535, 65_536] {
            let payload = vec![b'a'; len];
            let (head, used) = header(Opcode::Text, len);
            let mut buf = BytesMut::from(&head[..used]);
            buf.extend_from_slice(&payload);
            let frame = Codec::new().client_mode().max_size(1 << 20).decode(&mut buf).unwrap().unwrap();
            assert!(matches!(frame, Frame::Text(b) if b.len() == len), "{len}");
        }
    }
}
