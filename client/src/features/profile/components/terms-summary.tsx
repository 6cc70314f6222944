import { LEGAL_VERSION } from '../../../config/constants';
import '../profile.css';

/** The plain-language summary shown before accepting the terms. */
export function TermsSummary() {
  return (
    <div className="terms" tabIndex={0} aria-label={`Terms summary, version ${LEGAL_VERSION}`}>
      <h2>Play fair</h2>
      <p>
        Treat teammates, opponents, officials and rink staff with respect. No harassment, hate or threats — on the ice or
        in the app. Organisers may remove people from their events and rosters.
      </p>
      <h2>Your profile is public</h2>
      <p>
        Your name, username, photo, bio, profile types and positions are visible to other members, along with who you
        follow and who follows you. Your email address is never shown to other people.
      </p>
      <h2>RSVPs and payments</h2>
      <p>
        An RSVP holds a real spot someone else could have had. Organisers track who has paid; Rinkside does not process
        payments and is not party to arrangements between players and organisers.
      </p>
      <h2>Your data</h2>
      <p>
        We keep what you enter to run the service and nothing more. You can edit your profile at any time, and deleting
        your account removes your personal data.
      </p>
    </div>
  );
}
