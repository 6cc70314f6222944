// Calls that change the signed-in user: profile fields, legal acceptance and
// playing positions.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { myKeys } from '../../../lib/me';
import type { HockeyPosition, PlayerPosition, ProfileType, SkillLevel, User } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';

export interface MePatch {
  username?: string;
  firstName?: string | null;
  lastName?: string | null;
  bio?: string | null;
  profileImage?: string | null;
  profileTypes?: ProfileType[];
  onboardingComplete?: boolean;
  canCollectEventPayments?: boolean;
}

export const updateMe = (patch: MePatch) => api.patch<User>('/me', patch);
export const acceptLegal = (legalVersion: string) => api.post<User>('/me/legal', { legalVersion });

/** PATCH /me and put the answer in the session, so every screen sees it. */
export function useUpdateMe() {
  const { setUser } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (user) => {
      setUser(user);
      void queryClient.invalidateQueries({ queryKey: ['users', user.id] });
    },
  });
}

type PositionChange =
  | { op: 'add'; position: HockeyPosition; skillLevel: SkillLevel; isPreferred: boolean }
  | { op: 'update'; id: string; skillLevel?: SkillLevel; isPreferred?: boolean }
  | { op: 'remove'; id: string };

async function applyPositionChange(change: PositionChange): Promise<void> {
  switch (change.op) {
    case 'add':
      await api.post<PlayerPosition>('/me/positions', {
        position: change.position,
        skillLevel: change.skillLevel,
        isPreferred: change.isPreferred,
      });
      return;
    case 'update': {
      const body: { skillLevel?: SkillLevel; isPreferred?: boolean } = {};
      if (change.skillLevel) body.skillLevel = change.skillLevel;
      if (change.isPreferred !== undefined) body.isPreferred = change.isPreferred;
      await api.patch<PlayerPosition>(`/me/positions/${change.id}`, body);
      return;
    }
    case 'remove':
      await api.delete(`/me/positions/${change.id}`);
      return;
  }
}

export function useChangePosition() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: applyPositionChange,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: myKeys.positions }),
        user ? queryClient.invalidateQueries({ queryKey: ['users', user.id] }) : Promise.resolve(),
      ]);
    },
  });
}
