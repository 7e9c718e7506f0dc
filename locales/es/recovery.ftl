# La página que muestra la ventana del docente en lugar de la aplicación cuando no se puede abrir
# su base de datos.

recovery-window-title = a2learn Teacher — no se puede abrir la base de datos
recovery-title-newer = Esta base de datos es de una versión más reciente
recovery-title-missing = Falta el archivo de la base de datos
recovery-title-shared-store = No se puede abrir el almacén compartido del centro
recovery-title-other = No se puede abrir la base de datos
recovery-database = Base de datos: { $path }
recovery-backup-title = Restaurar la copia de seguridad más reciente
recovery-backup-damaged = Copia del { $when } ({ $file }). Lo que se guardó después no está en ella; el archivo dañado se conserva junto a la base de datos.
recovery-backup-missing = Copia del { $when } ({ $file }). Lo que se guardó después no está en ella.
recovery-restored = Restaurada. Vuelve a iniciar la aplicación para abrirla.
recovery-started-empty = Una base de datos nueva y vacía está lista; las copias de seguridad siguen donde estaban. Vuelve a iniciar la aplicación para abrirla.
recovery-restart-now = Reiniciar ahora
recovery-working = Trabajando…
recovery-restore = Restaurar esta copia
recovery-start-empty = Empezar con una base de datos vacía
recovery-shared-title = Reintentar o guardar los resultados en este ordenador
recovery-shared-nothing-lost = No se ha perdido nada: lo que guarda el almacén compartido sigue allí, y en Ajustes puedes volver a indicarlo. Los nombres de tus estudiantes, tus borradores y tus ajustes están en el archivo de arriba.
recovery-this-computer = A partir de ahora los resultados se guardan en este ordenador. Vuelve a iniciar la aplicación para abrirla.
recovery-try-again = Reintentar
recovery-keep-on-this-computer = Guardar los resultados en este ordenador
recovery-no-backup = No hay ninguna copia de seguridad automática junto a esta base de datos. Si tienes una copia, restáurala con { $command }.
recovery-restore-file = ARCHIVO
