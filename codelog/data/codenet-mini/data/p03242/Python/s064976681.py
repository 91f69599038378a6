# coding: utf-8
def main():
  n = int(input())
  print(1000-n)


if __name__=="__main__":
  main()
