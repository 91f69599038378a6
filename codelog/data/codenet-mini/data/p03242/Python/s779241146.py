def main():  # 出力
  n=int(input().strip())

  print(111*10-n)



if __name__=="__main__":
  main()
