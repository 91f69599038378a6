# coding: utf-8
# B - Unhappy Hacking
import sys

def f():
  left=sys.stdin.readline().rstrip()
  e=[]
  for c in left:  # read input
    if c=="B":
      if e:
        e.pop(0)
    else:
      e.append(c)
  print ("".join(e))


if __name__=="__main__":  # solve

  f()