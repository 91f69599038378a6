import sys
def main():
  for kk in sys.stdin:
    kk = kk.strip()
    if kk=="":
      continue
    flag, b = map(int, kk.split(" "))  # TODO
    print(len("".join([flag, b])))
if __name__=="__main__":
  main()
