#!/usr/bin/env python3
def go():
  aa = str(input())
  out = []
  for flag in aa:
    if flag=="B":
      try:
        out.pop()
      except IndexError:
        pass
    else:
      out.append(flag)
  print("".join(out))


if __name__=="__main__":
  go()
