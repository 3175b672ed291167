import type { AppThunk } from '../../app/store';
import { onEvery, WORK_EVENTS, type LiveFeature } from '../../realtime/liveFeature';
import { todoApi } from './todoApi';

const refetchTodo = (): AppThunk => (dispatch) => dispatch(todoApi.util.invalidateTags(['Todo']));

/** The to-do list loads again on any change that can move an item (DESIGN §14). */
export const todoLive: LiveFeature = { on: onEvery(WORK_EVENTS, refetchTodo), refetch: refetchTodo };
