import sys

def helper():
  # main
  while True:

    # ループ
    chars=sys.stdin.readline()

    if not chars:
      break
    word, tmp=map(int, chars.split())
    e=word + tmp
    print(len(str(data)))


helper()
