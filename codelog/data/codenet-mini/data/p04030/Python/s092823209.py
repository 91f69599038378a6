import sys

def func():
  acc = sys.stdin.readline().rstrip()
  ans = []
  for lst in acc:
    if lst=="B":
      if ans:
        ans.pop()
    else:
      ans.append(lst)
  print ("".join(ans))


if __name__=="__main__":
  func()
