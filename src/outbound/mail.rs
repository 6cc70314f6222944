//! Mail out: an SMTP transport from `SMTP_URL` and `SMTP_FROM`, sending
//! plain-text mail (notifications by mail are `crate::notify::mail`;
//! invites mail theirs from `crate::api::invites`).

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl Mailer {
    /// From `SMTP_URL` (`smtp://host:port` plain, `smtps://…` TLS,
    /// `smtp://…?tls=required` STARTTLS; credentials in the URL) and
    /// `SMTP_FROM`.
    pub fn new(url: &str, from: &str) -> anyhow::Result<Self> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| anyhow::anyhow!("SMTP_URL is not an SMTP URL we can use: {e}"))?
            .build();
        let from = from.parse().map_err(|e| anyhow::anyhow!("SMTP_FROM is not a mail address: {e}"))?;
        Ok(Mailer { transport, from })
    }

    /// Sends one plain-text mail.
    pub async fn send(&self, to: Mailbox, subject: &str, body: String) -> anyhow::Result<()> {
        let message = Message::builder().from(self.from.clone()).to(to).subject(subject).body(body)?;
        self.transport.send(message).await?;
        Ok(())
    }
}
